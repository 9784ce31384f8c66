import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `NSPersistentStore` as Apple's Swift API declares it: the designated `init(persistentStoreCoordinator:…)` that
/// custom stores override, `options` as given, `configurationName` never nil, `identifier` and `metadata` implicitly
/// unwrapped, an overridable `type`, and `NSManagedObjectID.persistentStore`.
struct PersistentStoreAppleAPITests {
    @Test func anAddedStoreReportsItsOptionsConfigurationIdentifierAndType() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        let options: [AnyHashable: Any] = [NSMigratePersistentStoresAutomaticallyOption: true]
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        #expect(store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME", "Apple's name for the default configuration")
        #expect(store.options?[NSMigratePersistentStoresAutomaticallyOption] as? Bool == true)
        #expect(store.identifier == store.metadata[NSStoreUUIDKey] as? String)
        #expect(store.type == NSSQLiteStoreType)
        #expect(!store.isReadOnly)

        let plain = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        #expect(plain.options == nil, "no options given reads nil, as Apple's")
    }

    @Test func anObjectIDNamesItsStoreOnceSaved() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            #expect(item.objectID.persistentStore == nil, "an unsaved object is in no store yet")
            try context.save()
            #expect(item.objectID.persistentStore === store)
            let id = item.objectID
            try coordinator.remove(store)
            #expect(id.persistentStore == nil, "a removed store no longer holds the object")
        }
    }

    @Test func aCustomStoreOverridesApplesInitializerTypeAndLoadMetadata() throws {
        NSPersistentStoreCoordinator.registerStoreClass(LoggingStore.self, forStoreType: "LoggingStore")
        let url = try TemporaryDirectory.make().appendingPathComponent("items.log")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        let added = try coordinator.addPersistentStore(ofType: "LoggingStore", configurationName: nil, at: url,
                                                       options: ["greeting": "hello"])
        let store = try #require(added as? LoggingStore)
        #expect(store.madeBy == "init(persistentStoreCoordinator:configurationName:at:options:) hello",
                "the coordinator makes the store through the subclass's override of Apple's initializer")
        #expect(store.calls == ["loadMetadata", "load"], "loadMetadata runs before load")
        #expect(store.type == "LoggingStore")
        #expect(store.identifier == "log-store-1", "the identifier set in loadMetadata is kept")

        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("a", forKey: "name")
            try context.save()
            #expect(item.objectID.persistentStore === store)
            #expect(item.objectID.uriRepresentation().host == "log-store-1")
        }
    }
}

extension PersistentStoreAppleAPITests {
    @Test func registeringNilRemovesAStoreTypeAndANonStoreClassIsNotRegistered() throws {
        NSPersistentStoreCoordinator.registerStoreClass(LoggingStore.self, type: NSPersistentStore.StoreType(rawValue: "Transient"))
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes["Transient"] == LoggingStore.self)
        NSPersistentStoreCoordinator.registerStoreClass(nil, forStoreType: "Transient")
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes["Transient"] == nil)
        NSPersistentStoreCoordinator.registerStoreClass(NSObject.self, forStoreType: "NotAStore")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        #expect {
            try coordinator.addPersistentStore(ofType: "NotAStore", configurationName: nil, at: nil)
        } throws: { error in
            "\(error)".contains("unknown store type \"NotAStore\"")
        }
    }
}

/// A custom atomic store written as on Apple's platforms: it overrides the designated initializer, `type` and
/// `loadMetadata()`, and keeps its objects in memory.
final class LoggingStore: NSAtomicStore, @unchecked Sendable {
    let madeBy: String
    var calls: [String] = []
    private var nextReference = 0

    override init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?, at url: URL,
                  options: [AnyHashable: Any]? = nil) {
        madeBy = "init(persistentStoreCoordinator:configurationName:at:options:) \(options?["greeting"] as? String ?? "-")"
        super.init(persistentStoreCoordinator: root, configurationName: name, at: url, options: options)
    }

    override var type: String { "LoggingStore" }

    override func loadMetadata() throws {
        calls.append("loadMetadata")
        identifier = "log-store-1"
        metadata = [NSStoreTypeKey: type, NSStoreUUIDKey: identifier!]
    }

    override func load() throws { calls.append("load") }
    override func save() throws {}

    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        nextReference += 1
        return nextReference
    }

    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        updateCacheNode(node, from: managedObject)
        return node
    }

    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        node.setValue(managedObject.value(forKey: "name"), forKey: "name")
    }
}
