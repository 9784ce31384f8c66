import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import XCTest

/// The coordinator's store notifications, observed as Apple's documentation describes them: stores-did-change (object:
/// the coordinator) with the added, removed or UUID-changed stores in its user info, and will-remove-store before a
/// store leaves. Stores-will-change is Apple's for iCloud ubiquity stores only, so no operation here posts it.
final class StoreChangeNotificationTests: XCTestCase {
    /// Every store notification posted while a test runs, in order.
    private final class Recorder: @unchecked Sendable {
        var notifications: [Notification] = []
        private var observers: [any NSObjectProtocol] = []

        init() {
            for name in [Notification.Name.NSPersistentStoreCoordinatorStoresWillChange, .NSPersistentStoreCoordinatorStoresDidChange,
                         .NSPersistentStoreCoordinatorWillRemoveStore] {
                observers.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [unowned self] in
                    notifications.append($0)
                })
            }
        }

        deinit { for observer in observers { NotificationCenter.default.removeObserver(observer) } }

        /// The notifications' names, in order.
        var names: [Notification.Name] { notifications.map(\.name) }

        func stores(_ key: String, at index: Int) -> [NSPersistentStore]? {
            notifications.indices.contains(index) ? notifications[index].userInfo?[key] as? [NSPersistentStore] : nil
        }
    }

    private func storeURL(_ name: String) throws -> URL {
        try TemporaryDirectory.make().appendingPathComponent(name)
    }

    private func insertChef(named name: String, into context: NSManagedObjectContext) {
        NSEntityDescription.insertNewObject(forEntityName: "Chef", into: context).setValue(name, forKey: "name")
    }

    func testTheNamesAreApplesSpellings() {
        XCTAssertEqual(NSNotification.Name.NSPersistentStoreCoordinatorStoresDidChange.rawValue,
                       "NSPersistentStoreCoordinatorStoresDidChangeNotification")
        XCTAssertEqual(NSNotification.Name.NSPersistentStoreCoordinatorStoresWillChange.rawValue,
                       "NSPersistentStoreCoordinatorStoresWillChangeNotification")
        XCTAssertEqual(NSNotification.Name.NSPersistentStoreCoordinatorWillRemoveStore.rawValue,
                       "NSPersistentStoreCoordinatorWillRemoveStoreNotification")
        XCTAssertEqual(Set([NSAddedPersistentStoresKey, NSRemovedPersistentStoresKey, NSUUIDChangedPersistentStoresKey]).count, 3)
    }

    func testAddingAStorePostsStoresDidChangeWithTheAddedStore() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try SampleStoreBuilder.recipesModel())
        let recorder = Recorder()
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: try storeURL("Recipes.sqlite"),
                                                       options: nil)

        XCTAssertEqual(recorder.names, [.NSPersistentStoreCoordinatorStoresDidChange])
        guard recorder.notifications.count == 1 else { return }
        XCTAssertTrue(recorder.notifications.first?.object as? NSPersistentStoreCoordinator === coordinator)
        XCTAssertEqual(recorder.stores(NSAddedPersistentStoresKey, at: 0).map { $0.map(ObjectIdentifier.init) }, [ObjectIdentifier(store)])
        XCTAssertNil(recorder.notifications.first?.userInfo?[NSRemovedPersistentStoresKey])
    }

    func testRemovingAStorePostsWillRemoveWhileItIsStillAddedThenStoresDidChange() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try SampleStoreBuilder.recipesModel())
        let store = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let recorder = Recorder()
        final class Stores: @unchecked Sendable { var whenWarned: [NSPersistentStore] = [] }
        let stores = Stores()
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreCoordinatorWillRemoveStore, object: store,
                                                              queue: nil) { _ in stores.whenWarned = coordinator.persistentStores }
        defer { NotificationCenter.default.removeObserver(observer) }
        try coordinator.remove(store)

        XCTAssertEqual(recorder.names, [.NSPersistentStoreCoordinatorWillRemoveStore, .NSPersistentStoreCoordinatorStoresDidChange])
        guard recorder.notifications.count == 2 else { return }
        XCTAssertTrue(recorder.notifications[0].object as? NSPersistentStore === store)
        XCTAssertNil(recorder.notifications[0].userInfo)
        XCTAssertEqual(stores.whenWarned.map(ObjectIdentifier.init), [ObjectIdentifier(store)], "posted before the store leaves")
        XCTAssertTrue(recorder.notifications[1].object as? NSPersistentStoreCoordinator === coordinator)
        XCTAssertEqual(recorder.stores(NSRemovedPersistentStoresKey, at: 1).map { $0.map(ObjectIdentifier.init) }, [ObjectIdentifier(store)])
        XCTAssertTrue(coordinator.persistentStores.isEmpty)
    }

    func testDestroyingAnAddedStoreRemovesItWithTheSameNotifications() throws {
        let url = try storeURL("Recipes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try SampleStoreBuilder.recipesModel())
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let recorder = Recorder()
        try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: nil)

        XCTAssertEqual(recorder.names, [.NSPersistentStoreCoordinatorWillRemoveStore, .NSPersistentStoreCoordinatorStoresDidChange])
        guard recorder.notifications.count == 2 else { return }
        XCTAssertEqual(recorder.stores(NSRemovedPersistentStoresKey, at: 1).map { $0.map(ObjectIdentifier.init) }, [ObjectIdentifier(store)])
    }

    func testMigratingAStorePostsTheOldAndNewStoresWithEachObjectsOldAndNewID() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try SampleStoreBuilder.recipesModel())
        let old = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: try storeURL("Old.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let oldIDs = try context.performAndWait { () -> [String: NSManagedObjectID] in
            insertChef(named: "Edythe", into: context)
            insertChef(named: "Alessandro", into: context)
            try context.save()
            let chefs = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            return Dictionary(uniqueKeysWithValues: chefs.map { ($0.value(forKey: "name") as! String, $0.objectID) })
        }
        context.performAndWait { context.reset() }

        let recorder = Recorder()
        let new = try coordinator.migratePersistentStore(old, to: try storeURL("New.sqlite"), options: nil, withType: NSSQLiteStoreType)

        // Only this coordinator's notifications: the migration's own scratch work is not announced.
        XCTAssertEqual(recorder.names, [.NSPersistentStoreCoordinatorStoresDidChange, .NSPersistentStoreCoordinatorStoresDidChange,
                                        .NSPersistentStoreCoordinatorWillRemoveStore, .NSPersistentStoreCoordinatorStoresDidChange])
        guard recorder.notifications.count == 4 else { return }
        XCTAssertEqual(recorder.stores(NSAddedPersistentStoresKey, at: 0).map { $0.map(ObjectIdentifier.init) }, [ObjectIdentifier(new)])
        XCTAssertTrue(recorder.notifications[2].object as? NSPersistentStore === old)
        XCTAssertEqual(recorder.stores(NSRemovedPersistentStoresKey, at: 3).map { $0.map(ObjectIdentifier.init) }, [ObjectIdentifier(old)])
        for notification in recorder.notifications where notification.name == .NSPersistentStoreCoordinatorStoresDidChange {
            XCTAssertTrue(notification.object as? NSPersistentStoreCoordinator === coordinator)
        }

        // Apple: index 0 the old store, 1 the new, 2 the migrated objects' IDs (each old ID, then its new one).
        let changed = try XCTUnwrap(recorder.notifications[1].userInfo?[NSUUIDChangedPersistentStoresKey] as? [Any])
        XCTAssertEqual(changed.count, 3)
        XCTAssertTrue(changed[0] as? NSPersistentStore === old)
        XCTAssertTrue(changed[1] as? NSPersistentStore === new)
        let migratedIDs = try XCTUnwrap(changed[2] as? [NSManagedObjectID])
        XCTAssertEqual(migratedIDs.count, 4)
        let newIDs = try context.performAndWait { () -> [String: NSManagedObjectID] in
            let chefs = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            return Dictionary(uniqueKeysWithValues: chefs.map { ($0.value(forKey: "name") as! String, $0.objectID) })
        }
        let pairs = stride(from: 0, to: migratedIDs.count, by: 2).map { (migratedIDs[$0], migratedIDs[$0 + 1]) }
        XCTAssertEqual(Set(pairs.map(\.0)), Set(oldIDs.values))
        for (name, oldID) in oldIDs {
            let pair = try XCTUnwrap(pairs.first { $0.0 == oldID })
            XCTAssertEqual(pair.1, newIDs[name], "\(name)'s new ID follows its old one")
            XCTAssertTrue(pair.1.persistentStore === new)
        }
    }

    func testTheUUIDChangedArrayReadsAsAFoundationArrayToo() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try SampleStoreBuilder.recipesModel())
        let old = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            insertChef(named: "Edythe", into: context)
            try context.save()
        }
        let recorder = Recorder()
        let new = try coordinator.migratePersistentStore(old, to: try storeURL("Copy.sqlite"), options: nil, withType: NSSQLiteStoreType)

        let changed = try XCTUnwrap(recorder.notifications.lazy.compactMap { $0.userInfo?[NSUUIDChangedPersistentStoresKey] as? NSArray }.first)
        XCTAssertTrue(changed[0] as? NSPersistentStore === old)
        XCTAssertTrue(changed[1] as? NSPersistentStore === new)
        XCTAssertEqual((changed[2] as? [NSManagedObjectID])?.count, 2)
    }

    func testMovingAStoreToAnotherFilePostsItsUUIDChange() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let first = try storeURL("First.sqlite"), second = try storeURL("Second.sqlite")
        try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                                                         at: second, options: nil)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: first, options: nil)
        let recorder = Recorder()

        XCTAssertFalse(coordinator.setURL(first.deletingLastPathComponent().appendingPathComponent("Missing.sqlite"), for: store))
        XCTAssertTrue(recorder.notifications.isEmpty, "a move that fails changes nothing")
        XCTAssertTrue(coordinator.setURL(second, for: store))

        XCTAssertEqual(recorder.names, [.NSPersistentStoreCoordinatorStoresDidChange])
        guard recorder.notifications.count == 1 else { return }
        let changed = try XCTUnwrap(recorder.notifications.first?.userInfo?[NSUUIDChangedPersistentStoresKey] as? [NSPersistentStore])
        XCTAssertEqual(changed.map(ObjectIdentifier.init), [ObjectIdentifier(store), ObjectIdentifier(store)])
    }
}
