import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import XCTest

/// Models written as Xcode `contents` XML, stores filled through a context, and byte snapshots of store files.
enum MigrationTestSupport {
    /// Version 1 of the people-and-cars model several migration tests start from: `Person` (`name`, to-many `cars`)
    /// and `Car` (`plate`, to-one `owner`), inverse of each other.
    static let peopleAndCars = """
            <entity name="Person" representedClassName="NSManagedObject">
                <attribute name="name" attributeType="String"/>
                <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
            </entity>
            <entity name="Car" representedClassName="NSManagedObject">
                <attribute name="plate" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
            </entity>
        """

    static func model(_ entities: String, file: String = #function) throws -> NSManagedObjectModel {
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic">
        \(entities)
        </model>
        """
        return try XcdatamodelReader(file: file).read(Data(xml.utf8))
    }

    static func storeURL(_ name: String = "Store.sqlite") throws -> URL {
        try TemporaryDirectory.make(prefix: "migration").appendingPathComponent(name)
    }

    /// Creates a store at `url` with `model` and runs `fill` in a context, then saves and closes it.
    static func makeStore(at url: URL, model: NSManagedObjectModel, fill: (NSManagedObjectContext) throws -> Void) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            try fill(context)
            try context.save()
        }
        try coordinator.remove(store)
    }

    /// Opens the store with `model`, migrating automatically, and returns a context on it.
    static func open(_ url: URL, model: NSManagedObjectModel, options: [String: Any] = [
        NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
    ]) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @discardableResult
    static func insert(_ entity: String, _ values: [String: Any], into context: NSManagedObjectContext) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    static func fetch(_ entity: String, in context: NSManagedObjectContext, sortedBy key: String) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.sortDescriptors = [Predicates.NSSortDescriptor(key: key, ascending: true)]
        return try context.fetch(request)
    }

    /// The bytes of a store and its non-empty side files, to prove a refused migration changed nothing. (An empty
    /// `-wal` holds nothing: a read-only connection leaves one behind.)
    static func snapshot(_ url: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-journal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            let data = try Data(contentsOf: URL(fileURLWithPath: url.path + suffix))
            if !data.isEmpty || suffix.isEmpty { files[suffix] = data }
        }
        return files
    }

    /// An integer attribute's value whatever integer type the store returns.
    static func int(_ value: Any?) -> Int? {
        switch value {
        case let value as Int64: return Int(value)
        case let value as Int32: return Int(value)
        case let value as Int16: return Int(value)
        case let value as Int: return value
        default: return nil
        }
    }
}
