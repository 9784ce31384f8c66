import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `NSMigrationManager`'s Apple spellings: the typed `migrateStore(from:type:options:mapping:to:type:options:)`
/// (iOS 15), `reset()` between migrations, and the store classes' `migrationManagerClass()`.
struct MigrationManagerAPITests {
    private typealias Support = MigrationTestSupport

    private func models() throws -> (NSManagedObjectModel, NSManagedObjectModel) {
        let v1 = try Support.model("<entity name=\"Note\"><attribute name=\"title\" attributeType=\"String\"/></entity>")
        let v2 = try Support.model("""
            <entity name="Note">
                <attribute name="title" attributeType="String"/>
                <attribute name="stars" optional="YES" attributeType="Integer 32"/>
            </entity>
            """)
        return (v1, v2)
    }

    private func makeSource(_ v1: NSManagedObjectModel) throws -> URL {
        let url = try Support.storeURL("Source.sqlite")
        try Support.makeStore(at: url, model: v1) { context in
            for title in ["b", "a", "c"] { Support.insert("Note", ["title": title], into: context) }
        }
        return url
    }

    private func titles(_ url: URL, _ model: NSManagedObjectModel) throws -> [String] {
        let context = try Support.open(url, model: model, options: [:])
        return try context.performAndWait {
            try Support.fetch("Note", in: context, sortedBy: "title").map { $0.value(forKey: "title") as? String ?? "?" }
        }
    }

    @Test func theTypedMigrateStoreMigratesWithTheMappingGiven() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: source, type: .sqlite, options: nil, mapping: mapping, to: destination, type: .sqlite, options: nil)
        #expect(try titles(destination, v2) == ["a", "b", "c"])
        #expect(manager.mappingModel === mapping)

        // Into another store type, with Apple's `[AnyHashable: Any]` options.
        let xml = source.deletingLastPathComponent().appendingPathComponent("Destination.xml")
        let options: [AnyHashable: Any] = [NSReadOnlyPersistentStoreOption: false]
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, type: .sqlite, options: options, mapping: mapping, to: xml, type: .xml, options: options)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v2)
        try coordinator.addPersistentStore(ofType: NSXMLStoreType, configurationName: nil, at: xml, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let migrated = try context.performAndWait {
            try Support.fetch("Note", in: context, sortedBy: "title").map { $0.value(forKey: "title") as? String ?? "?" }
        }
        #expect(migrated == ["a", "b", "c"])
    }

    /// `reset()` clears what a migration left (its mapping model and progress) and a cancellation not used yet, so
    /// the same manager runs the next migration afresh.
    @Test func resetClearsTheLastMigrationAndAPendingCancellation() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let directory = source.deletingLastPathComponent()
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: source, type: .sqlite, mapping: mapping, to: directory.appendingPathComponent("First.sqlite"), type: .sqlite)
        #expect(manager.mappingModel != nil)
        #expect(manager.migrationProgress == 1)

        manager.reset()
        #expect(manager.mappingModel == nil)
        #expect(manager.migrationProgress == 0)

        // A cancellation given before a migration cancels the next one, unless the manager is reset first.
        manager.cancelMigrationWithError(CocoaError(.userCancelled))
        manager.reset()
        let second = directory.appendingPathComponent("Second.sqlite")
        try manager.migrateStore(from: source, type: .sqlite, mapping: mapping, to: second, type: .sqlite)
        #expect(try titles(second, v2) == ["a", "b", "c"])

        // Without the reset, the cancellation applies.
        manager.cancelMigrationWithError(CocoaError(.userCancelled))
        let third = directory.appendingPathComponent("Third.sqlite")
        #expect(throws: (any Error).self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: mapping, to: third, type: .sqlite)
        }
        #expect(!FileManager.default.fileExists(atPath: third.path))
    }

    @Test func storeClassesNameNSMigrationManager() {
        let manager = ObjectIdentifier(NSMigrationManager.self)
        #expect(ObjectIdentifier(NSPersistentStore.migrationManagerClass()) == manager)
        #expect(ObjectIdentifier(NSSQLiteStore.migrationManagerClass()) == manager)
        #expect(ObjectIdentifier(NSXMLStore.migrationManagerClass()) == manager)
        let managerClass = NSPersistentStore.migrationManagerClass() as? NSMigrationManager.Type
        #expect(managerClass != nil)
    }
}
