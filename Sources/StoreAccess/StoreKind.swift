import CoreDataModel
import CoreDataObjectGraph
import Foundation

/// The store type a command opens a file as: what `--type` names (`sqlite`, `xml`, `binary`, `memory`, or the
/// name of a store type registered with `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`), or what the
/// file's first bytes say when `--type` is not given.
package enum StoreKind: Equatable, Sendable {
    /// A store of this Core Data store type (`NSSQLiteStoreType`, `NSXMLStoreType`, … or a custom one).
    case file(String)
    /// The file's objects loaded into an in-memory store: nothing is ever written back.
    case memory

    /// The names `--type` takes, for help and messages.
    package static var names: [String] {
        ["sqlite", "xml", "binary", "memory"] + customTypes.map { $0.lowercased() }
    }

    private static let builtIn: [String: String] = ["sqlite": NSSQLiteStoreType, "xml": NSXMLStoreType, "binary": NSBinaryStoreType]

    /// Store types registered beyond Apple's four.
    private static var customTypes: [String] {
        NSPersistentStoreCoordinator.registeredStoreTypes.keys
            .filter { ![NSSQLiteStoreType, NSXMLStoreType, NSBinaryStoreType, NSInMemoryStoreType].contains($0) }.sorted()
    }

    /// The kind `--type NAME` names; a usage error listing the known names otherwise.
    package init(typeName: String) throws {
        let name = typeName.lowercased()
        if name == "memory" || name == "inmemory" {
            self = .memory
        } else if let type = Self.builtIn[name] {
            self = .file(type)
        } else if let custom = Self.customTypes.first(where: { $0.lowercased() == name }) {
            self = .file(custom)
        } else {
            throw StoreAccessError("--type \(typeName): unknown store type; known: \(Self.names.joined(separator: ", "))", isUsageError: true)
        }
    }

    /// The store type of the file at `path`, from its content; SQLite when the content names none (so that the
    /// SQLite reader names the precise problem).
    package static func detectedType(at path: String) throws -> String {
        do {
            return try NSPersistentStoreCoordinator.storeType(ofFileAt: URL(fileURLWithPath: path)) ?? NSSQLiteStoreType
        } catch let error as CoreDataError {
            throw StoreAccessError(error.message)
        }
    }

    /// The `--type` word for a store type (`xml` for `NSXMLStoreType`), for messages.
    package static func name(of storeType: String) -> String {
        builtIn.first { $0.value == storeType }?.key ?? (storeType == NSInMemoryStoreType ? "memory" : storeType.lowercased())
    }

    /// Whether stores of `storeType` are single files that `SourceKind` can look into (custom stores may be directories).
    package static func isFileType(_ storeType: String) -> Bool {
        [NSSQLiteStoreType, NSXMLStoreType, NSBinaryStoreType].contains(storeType)
    }
}

extension StoreSession {
    /// Opens a store that is not SQLite: its model given (`--model`, the version matching the store's hashes), or for
    /// an XML store read-only inferred from the file; other stores carry no model.
    static func openNonSQLite(url: URL, storeType: String, modelPath: String?,
                              readOnly: Bool) throws -> (NSManagedObjectModel, NSPersistentStoreCoordinator) {
        var options: [String: Any] = [NSReadOnlyPersistentStoreOption: readOnly]
        let model: NSManagedObjectModel
        do {
            if let modelPath {
                let metadata = (try? NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: storeType, at: url)) ?? [:]
                let hashes = (metadata[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
                model = try ModelLoader.loadVersions(at: URL(fileURLWithPath: modelPath)).version(matchingStoreHashes: hashes).model
            } else if storeType == NSXMLStoreType {
                guard readOnly else {
                    throw StoreAccessError("\(url.path) is an XML store, which carries no model; editing needs the exact model: pass --model")
                }
                model = try NSXMLStore.inferredModel(at: url)
                options[NSIgnorePersistentStoreVersioningOption] = true
            } else {
                throw StoreAccessError("\(url.path) is a \(StoreKind.name(of: storeType)) store, which carries no model: pass --model")
            }
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: storeType, at: url, options: options)
            return (model, coordinator)
        } catch let error as CoreDataError {
            throw StoreAccessError(error.message)
        }
    }
}
