import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import Predicates

/// A store opened for a command: its model (given, cached in the store, or inferred), a coordinator and a
/// private-queue context. Read-only unless the command writes.
package struct StoreSession {
    package let path: String
    package let model: NSManagedObjectModel
    package let coordinator: NSPersistentStoreCoordinator
    package let context: NSManagedObjectContext
    /// Set when opening rolled back an interrupted save's journal: one line for the user (stderr, message line).
    package let recoveryNote: String?
    /// The type of the store file (`NSSQLiteStoreType`, `NSXMLStoreType`, …), given or detected; an in-memory copy
    /// (`--type memory`) keeps its file's type here.
    package let storeType: String

    /// Opens the store at `givenPath` as `kind` (`--type`), or as the type its content shows when `kind` is nil.
    package init(storePath givenPath: String, modelPath: String?, readOnly: Bool = true, kind: StoreKind? = nil) throws {
        let given: String? = if case .file(let type)? = kind { type } else { nil }
        // A custom store may be a directory: only the built-in file types are looked into.
        let storePath = given.map(StoreKind.isFileType) == false ? givenPath : try SourceKind.storeFile(at: givenPath)
        let url = URL(fileURLWithPath: storePath)
        if given.map(StoreKind.isFileType) != false {
            guard try SourceKind.detect(url) == .store else {
                throw StoreAccessError("\(storePath) is a model, not a store; commands that read objects need a store (.sqlite, XML or binary)")
            }
        }
        let storeType = try given ?? StoreKind.detectedType(at: storePath)
        if kind == .memory, !readOnly {
            throw StoreAccessError("--type memory: the objects would be edited in memory and lost; nothing was changed", isUsageError: true)
        }
        self.storeType = storeType
        if storeType != NSSQLiteStoreType {
            recoveryNote = nil
            (model, coordinator) = try Self.openNonSQLite(url: url, storeType: storeType, modelPath: modelPath, readOnly: readOnly)
        } else {
            (model, coordinator, recoveryNote) = try Self.openSQLite(url: url, modelPath: modelPath, readOnly: readOnly)
        }
        if kind == .memory, let store = coordinator.persistentStores.first {
            // Loaded into memory: the file stays as it was, whatever the session does.
            do {
                try coordinator.migratePersistentStore(store, to: URL(fileURLWithPath: "/dev/null"), withType: NSInMemoryStoreType)
            } catch let error as CoreDataError {
                throw StoreAccessError("\(storePath): cannot be loaded into memory: \(error.message)")
            }
        }
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        path = storePath
    }

    private static func openSQLite(url: URL, modelPath: String?,
                                   readOnly: Bool) throws -> (NSManagedObjectModel, NSPersistentStoreCoordinator, String?) {
        let storePath = url.path
        let file = try SQLiteStoreFile(path: storePath)
        let recoveryNote = file.recoveryNote
        var options: [String: Any] = [NSReadOnlyPersistentStoreOption: readOnly]
        let model: NSManagedObjectModel
        if let modelPath {
            model = try ModelLoader.loadVersions(at: URL(fileURLWithPath: modelPath))
                .version(matchingStoreHashes: file.metadata.versionHashes).model
        } else if let cached = try file.cachedModel() {
            model = cached
        } else {
            guard readOnly else {
                throw StoreAccessError("\(storePath) carries no model (no Z_MODELCACHE); editing needs the exact model: pass --model")
            }
            model = try ModelInference(store: file).infer().model
            options[NSIgnorePersistentStoreVersioningOption] = true
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: options)
        // Refused before anything is asked or changed: a store that cannot be written (see `writeRefusal`).
        if !readOnly, let refusal = store.writeRefusal {
            throw StoreAccessError("\(refusal): it cannot be edited", refusesWriting: true)
        }
        return (model, coordinator, recoveryNote)
    }

    /// The identifier of the store, as object URIs carry it.
    package var storeIdentifier: String { coordinator.persistentStores.first?.identifier ?? "" }

    /// The entity named `name`, else the one entity whose name differs from it only in case (an XML store read
    /// without its model writes entity names in upper case, so `Recipe` finds `RECIPE`), or a failure that lists the
    /// entities there are. Callers use the returned entity's name from then on.
    package func entity(named name: String) throws -> NSEntityDescription {
        if let entity = model.entitiesByName[name] { return entity }
        let folded = model.entities.filter { $0.entityName.caseInsensitiveCompare(name) == .orderedSame }
        if folded.count == 1 { return folded[0] }
        let suggestion = folded.isEmpty ? "" : " (names that differ only in case: \(folded.map(\.entityName).sorted().joined(separator: ", ")))"
        throw StoreAccessError("unknown entity \"\(name)\"\(suggestion); \(path) has: \(model.entities.map(\.entityName).sorted().joined(separator: ", "))")
    }

    /// A fetch of `entityName` objects matching `predicate` (a format string), with both checked first.
    package func objectRequest(entityName: String, predicate: String?) throws -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: try entity(named: entityName).entityName)
        request.predicate = try Self.predicate(predicate)
        return request
    }

    /// A fetch of `entityName` objects matching an already parsed `predicate`, with the entity checked first.
    package func objectRequest(entityName: String, parsedPredicate predicate: Predicates.NSPredicate?) throws -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: try entity(named: entityName).entityName)
        request.predicate = predicate
        return request
    }

    /// Checks that `keyPath` walks through `entity`'s properties and relationships; throws naming the bad step.
    package func validateKeyPath(_ keyPath: String, from entity: NSEntityDescription) throws {
        var current = entity
        let components = keyPath.split(separator: ".").map(String.init)
        for (index, component) in components.enumerated() {
            if component.hasPrefix("@") { return }
            guard let property = current.propertiesByName[component] else {
                let walked = components[..<index].joined(separator: ".")
                throw StoreAccessError("unknown key \"\(component)\" in \(keyPath): \(walked.isEmpty ? current.entityName : walked + " (" + current.entityName + ")") has: "
                                     + current.propertiesByName.keys.sorted().joined(separator: ", "))
            }
            if let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity {
                current = destination
            } else if index < components.count - 1 {
                throw StoreAccessError("\(keyPath): \(component) is an attribute, so nothing can follow it")
            }
        }
    }

    /// Parses a predicate format string; nil for an absent or blank one. A syntax error becomes a headline naming
    /// the problem, then the format on a line of its own with a caret under the bad character, so that whatever
    /// prefixes the headline (`coredata: error: `, the browser's prompt) never shifts the caret off its character.
    ///
    /// `arguments` fill `%@` and `%K` in order; `variables` replace `$NAME` (a variable left without a value stays
    /// one, and evaluating it is an error).
    package static func predicate(_ format: String?, arguments: [Any?] = [], variables: [String: Any] = [:]) throws -> Predicates.NSPredicate? {
        guard let format, !format.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        let parsed: Predicates.NSPredicate
        do {
            parsed = try Predicates.NSPredicate(parsing: format, argumentArray: arguments)
        } catch {
            throw StoreAccessError("invalid predicate: \(error.reason)\n" + error.caretDiagnostic, isUsageError: true)
        }
        return variables.isEmpty ? parsed : parsed.withSubstitutionVariables(variables)
    }

    /// The keys shown by default for `entity`: stored attributes, then to-one relationships.
    package static func defaultKeys(for entity: NSEntityDescription) -> [String] {
        let properties = entity.allProperties
        let attributes = properties.compactMap { $0 as? NSAttributeDescription }.filter { !$0.isTransient }.map(\.name)
        let toOnes = properties.compactMap { $0 as? NSRelationshipDescription }.filter { !$0.isToMany }.map(\.name)
        return attributes + toOnes
    }
}
