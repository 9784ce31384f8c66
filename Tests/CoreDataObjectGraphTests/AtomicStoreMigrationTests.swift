import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Lightweight migration of the XML and binary stores: automatic on `addPersistentStore` with Apple's options, and
/// through `NSMigrationManager` between store types; a migration that fails leaves the file byte for byte as it was.
struct AtomicStoreMigrationTests {
    static let fileTypes = AtomicFileStoreTests.fileTypes
    static var automatic: [String: Any] { [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true] }

    /// A version-1 store (people and pets) at a fresh URL, with an app metadata key.
    static func versionOneStore(type: String) throws -> (url: URL, model: NSManagedObjectModel) {
        let url = try TemporaryDirectory.make().appendingPathComponent("people.store")
        let model = AtomicFileStoreTests.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: type, at: url)
        var metadata = coordinator.metadata(for: store)
        metadata["AppKey"] = "kept"
        coordinator.setMetadata(metadata, for: store)
        try AtomicFileStoreTests.fill(AtomicFileStoreTests.context(coordinator))
        return (url, model)
    }

    static func directoryListing(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
    }

    @Test(arguments: fileTypes)
    func addingWithTheMigrationOptionsMigratesTheFile(type: String) throws {
        let (url, old) = try Self.versionOneStore(type: type)
        let expected = try Self.summary(of: url, type: type, model: old)
        let new = AtomicFileStoreTests.model(withNickname: true)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: new)
        var options = Self.automatic
        options[OCDSourceModelsOption] = [old]
        let store = try coordinator.addPersistentStore(ofType: type, at: url, options: options)
        #expect(try AtomicFileStoreTests.summary(AtomicFileStoreTests.context(coordinator)) == expected)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        #expect((metadata[NSStoreModelVersionHashesKey] as? [String: Any])?.compactMapValues { $0 as? Data } == new.entityVersionHashesByName)
        #expect(metadata["AppKey"] as? String == "kept")
        #expect(metadata[NSStoreUUIDKey] as? String == store.identifier)
        // The new attribute is there to be set, and saved.
        let context = AtomicFileStoreTests.context(coordinator)
        try context.performAndWait {
            let ann = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first { $0.propertyValue(forKey: "name") as? String == "Ann" }!
            #expect(ann.propertyValue(forKey: "nickname") == nil)
            ann.setValue("Annie", forKey: "nickname")
            try context.save()
        }
        // Opened again with the new model and no options: no migration is needed any more.
        let reopened = NSPersistentStoreCoordinator(managedObjectModel: new)
        try reopened.addPersistentStore(ofType: type, at: url)
        #expect(try AtomicFileStoreTests.summary(AtomicFileStoreTests.context(reopened)) == expected)
        // No scratch file or folder is left beside the store.
        #expect(try Self.directoryListing(url) == ["people.store"])
    }

    @Test(arguments: fileTypes)
    func withoutTheOptionsOrTheSourceModelTheFileIsUntouched(type: String) throws {
        let (url, old) = try Self.versionOneStore(type: type)
        let before = try Data(contentsOf: url)
        let new = AtomicFileStoreTests.model(withNickname: true)
        let cases: [([String: Any], CoreDataError.Code)] = [
            ([:], .persistentStoreIncompatibleVersionHash),
            ([NSMigratePersistentStoresAutomaticallyOption: true, OCDSourceModelsOption: [old]], .migrationMissingMappingModel),
            (Self.automatic, .migrationMissingSourceModel),
        ]
        for (options, code) in cases {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: new)
            let error = try #require(throws: CoreDataError.self) { try coordinator.addPersistentStore(ofType: type, at: url, options: options) }
            #expect(error.code == code, "\(error.message)")
            #expect(error.message.hasPrefix(url.path), "\(error.message)")
            #expect(coordinator.persistentStores.isEmpty)
            #expect(try Data(contentsOf: url) == before)
        }
        #expect(try Self.directoryListing(url) == ["people.store"])
    }

    @Test(arguments: fileTypes)
    func aMigrationThatFailsLeavesTheFileByteForByte(type: String) throws {
        let (url, old) = try Self.versionOneStore(type: type)
        let before = try Data(contentsOf: url)
        // Version 2 adds a required attribute with no default: Bob and Ann cannot be given one, so validation fails.
        let new = AtomicFileStoreTests.model(withNickname: true)
        let nickname = try #require(new.entitiesByName["Person"]?.attributesByName["nickname"])
        nickname.isOptional = false
        var options = Self.automatic
        options[OCDSourceModelsOption] = [old]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: new)
        #expect(throws: CoreDataError.self) { try coordinator.addPersistentStore(ofType: type, at: url, options: options) }
        #expect(coordinator.persistentStores.isEmpty)
        #expect(try Data(contentsOf: url) == before)
        #expect(try Self.directoryListing(url) == ["people.store"])
        // Still readable with its own model.
        #expect(try Self.summary(of: url, type: type, model: old).count == 2)
    }

    @Test func theMigrationManagerMapsAnXMLStoreIntoABinaryStoreOfTheNextVersion() throws {
        let (url, old) = try Self.versionOneStore(type: NSXMLStoreType)
        let expected = try Self.summary(of: url, type: NSXMLStoreType, model: old)
        let new = AtomicFileStoreTests.model(withNickname: true)
        let destination = url.deletingLastPathComponent().appendingPathComponent("people.binary")
        let manager = NSMigrationManager(sourceModel: old, destinationModel: new)
        try manager.migrateStore(from: url, sourceType: NSXMLStoreType, with: nil, toDestinationURL: destination, destinationType: NSBinaryStoreType)
        #expect(manager.mappingModel?.entityMappings.count == 2)
        #expect(try Self.summary(of: destination, type: NSBinaryStoreType, model: new) == expected)
    }

    static func summary(of url: URL, type: String, model: NSManagedObjectModel) throws -> [String] {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: type, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        return try AtomicFileStoreTests.summary(AtomicFileStoreTests.context(coordinator))
    }
}
