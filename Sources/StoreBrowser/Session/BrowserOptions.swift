import Foundation
import StoreAccess

/// How the browser is opened: `coredata [browse] STORE [--entity E] [--predicate P] [--model M] [--edit]`.
public struct BrowserOptions: Sendable, Equatable {
    package var storePath: String
    package var modelPath: String?
    /// The entity whose table opens first; the first entity with objects when nil.
    package var entityName: String?
    /// A predicate format applied to that table at once.
    package var predicateFormat: String?
    /// Whether the store opens for editing (read-only otherwise; `:edit` switches later).
    package var allowsEditing: Bool
    /// Where prompt histories and named predicates live; nil keeps them in memory only.
    package var stateDirectory: String?
    /// Re-fetch at once when another process changes the store, instead of only saying so.
    package var refreshesAutomatically: Bool
    /// Objects loaded per batch of the table's batch-faulting array.
    package var batchSize: Int
    /// The store type given with `--type`; nil detects it from the file.
    package var storeKind: StoreKind?

    public init(storePath: String, modelPath: String? = nil, entityName: String? = nil, predicateFormat: String? = nil,
                allowsEditing: Bool = false, stateDirectory: String? = nil, refreshesAutomatically: Bool = false,
                batchSize: Int = 100) {
        self.storeKind = nil
        self.storePath = storePath
        self.modelPath = modelPath
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.allowsEditing = allowsEditing
        self.stateDirectory = stateDirectory
        self.refreshesAutomatically = refreshesAutomatically
        self.batchSize = batchSize
    }

    /// `$XDG_STATE_HOME/coredata`, or `~/.local/state/coredata` when XDG_STATE_HOME is unset or not absolute (the
    /// XDG base directory rule).
    package static func defaultStateDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/coredata" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/coredata"
    }
}
