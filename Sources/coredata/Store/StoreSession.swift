import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation

/// A store opened for a command: its model (given, cached in the store, or inferred), a coordinator and a
/// private-queue context. Read-only unless the command writes.
struct StoreSession {
    let path: String
    let model: NSManagedObjectModel
    let coordinator: NSPersistentStoreCoordinator
    let context: NSManagedObjectContext

    init(storePath: String, modelPath: String?, readOnly: Bool = true) throws {
        let url = URL(fileURLWithPath: storePath)
        guard try SourceKind.detect(url) == .store else {
            throw CommandFailure("\(storePath) is a model, not a store; commands that read objects need a .sqlite store")
        }
        let file = try SQLiteStoreFile(path: storePath)
        var options: [String: Any] = [NSReadOnlyPersistentStoreOption: readOnly]
        if let modelPath {
            model = try ModelLoader.loadVersions(at: URL(fileURLWithPath: modelPath))
                .version(matchingStoreHashes: file.metadata.versionHashes).model
        } else if let cached = try file.cachedModel() {
            model = cached
        } else {
            guard readOnly else {
                throw CommandFailure("\(storePath) carries no model (no Z_MODELCACHE); editing needs the exact model: pass --model")
            }
            model = try ModelInference(store: file).infer().model
            options[NSIgnorePersistentStoreVersioningOption] = true
        }
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: options)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        path = storePath
    }

    /// The entity named `name`, or a failure that lists the entities there are.
    func entity(named name: String) throws -> NSEntityDescription {
        guard let entity = model.entitiesByName[name] else {
            let suggestion = model.entities.first { $0.name.lowercased() == name.lowercased() }.map { " (did you mean \($0.name)?)" } ?? ""
            throw CommandFailure("unknown entity \"\(name)\"\(suggestion); \(path) has: \(model.entities.map(\.name).sorted().joined(separator: ", "))")
        }
        return entity
    }

    /// A fetch of `entityName` objects matching `predicate` (a format string), with both checked first.
    func objectRequest(entityName: String, predicate: String?) throws -> NSFetchRequest<NSManagedObject> {
        _ = try entity(named: entityName)
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.predicate = try FetchOptions.predicate(predicate)
        return request
    }

    /// Checks that `keyPath` walks through `entity`'s properties and relationships; throws naming the bad step.
    func validateKeyPath(_ keyPath: String, from entity: NSEntityDescription) throws {
        var current = entity
        let components = keyPath.split(separator: ".").map(String.init)
        for (index, component) in components.enumerated() {
            if component.hasPrefix("@") { return }
            guard let property = current.propertiesByName[component] else {
                let walked = components[..<index].joined(separator: ".")
                throw CommandFailure("unknown key \"\(component)\" in \(keyPath): \(walked.isEmpty ? current.name : walked + " (" + current.name + ")") has: "
                                     + current.propertiesByName.keys.sorted().joined(separator: ", "))
            }
            if let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity {
                current = destination
            } else if index < components.count - 1 {
                throw CommandFailure("\(keyPath): \(component) is an attribute, so nothing can follow it")
            }
        }
    }
}
