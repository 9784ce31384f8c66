import CoreDataModel
import Foundation

/// Describes a store to add: its type, location and options (what `NSPersistentContainer.loadPersistentStores`
/// hands to `addPersistentStore(ofType:configurationName:at:options:)`).
public final class NSPersistentStoreDescription: @unchecked Sendable, CustomStringConvertible {
    public var type: String = NSSQLiteStoreType
    public var url: URL?
    public var configuration: String?
    public var options: [String: Any] = [:]
    public var isReadOnly: Bool {
        get { options[NSReadOnlyPersistentStoreOption] as? Bool ?? false }
        set { options[NSReadOnlyPersistentStoreOption] = newValue }
    }
    /// Seconds to wait for another process's lock.
    public var timeout: TimeInterval {
        get { options[NSPersistentStoreTimeoutOption] as? Double ?? 5 }
        set { options[NSPersistentStoreTimeoutOption] = newValue }
    }

    /// Migrate a store whose model version differs when it is added (`NSMigratePersistentStoresAutomaticallyOption`);
    /// true unless set otherwise, as on Apple's platforms.
    public var shouldMigrateStoreAutomatically: Bool {
        get { options[NSMigratePersistentStoresAutomaticallyOption] as? Bool ?? false }
        set { options[NSMigratePersistentStoresAutomaticallyOption] = newValue }
    }
    /// Infer the mapping of such a migration (`NSInferMappingModelAutomaticallyOption`); true unless set otherwise.
    public var shouldInferMappingModelAutomatically: Bool {
        get { options[NSInferMappingModelAutomaticallyOption] as? Bool ?? false }
        set { options[NSInferMappingModelAutomaticallyOption] = newValue }
    }

    /// A description of an SQLite store at `url`.
    public init(url: URL) {
        self.url = url
        migrateByDefault()
    }

    /// A description with no location yet.
    public init() {
        migrateByDefault()
    }

    private func migrateByDefault() {
        options[NSMigratePersistentStoresAutomaticallyOption] = true
        options[NSInferMappingModelAutomaticallyOption] = true
    }

    /// Whether `loadPersistentStores` may add the store in the background; false by default. Stores are always added
    /// before `loadPersistentStores` returns here (docs/DEVIATIONS.md): the handler is called either way.
    public var shouldAddStoreAsynchronously = false

    /// The SQLite pragmas to set when the store opens (`NSSQLitePragmasOption`), by name.
    public var sqlitePragmas: [String: Any] {
        options[NSSQLitePragmasOption] as? [String: Any] ?? [:]
    }

    /// Sets one SQLite pragma for the store (`nil` removes it), as Apple's `setValue(_:forPragmaNamed:)`.
    public func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value.map { ($0 as? NSString).map { String($0) } ?? $0 }
        options[NSSQLitePragmasOption] = pragmas
    }

    /// Sets one option (`nil` removes it), as Apple's `setOption(_:forKey:)`.
    public func setOption(_ option: Any?, forKey key: String) {
        options[key] = option
    }

    public var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.absoluteString ?? "nil"))"
    }
}
