import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing
import UndoManagement

/// The lifecycle hooks a subclass overrides, called when Apple's documentation says they are: `awakeFromInsert` once
/// on insertion, `awakeFromFetch` when a fault is fulfilled from the store, `willSave`/`didSave` around a save for each
/// inserted, updated and deleted object, `prepareForDeletion` when a deletion is processed, the fault hooks when an
/// object turns back into a fault, and `awake(fromSnapshotEvents:)` on undo and rollback.
@Suite(.serialized)
struct LifecycleHookTests {
    /// Records every hook call of every `Diary` in order.
    final class Log: @unchecked Sendable {
        var entries: [String] = []
        let lock = NSLock()
        func add(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
        func take() -> [String] { lock.lock(); defer { entries = []; lock.unlock() }; return entries }
    }
    nonisolated(unsafe) static var log = Log()

    final class Diary: NSManagedObject {
        @Managed var title: String?
        @Managed var created: Date?

        private var tag: String { (primitiveValue(forKey: "title") as? String) ?? "-" }

        override func awakeFromInsert() {
            super.awakeFromInsert()
            LifecycleHookTests.log.add("awakeFromInsert")
            // Apple's documented use: set initial values with the primitive accessors.
            setPrimitiveValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "created")
        }
        override func awakeFromFetch() { super.awakeFromFetch(); LifecycleHookTests.log.add("awakeFromFetch \(tag)") }
        override func awake(fromSnapshotEvents flags: NSSnapshotEventType) {
            super.awake(fromSnapshotEvents: flags)
            LifecycleHookTests.log.add("awake(fromSnapshotEvents: \(flags.rawValue)) \(tag)")
        }
        override func willSave() { super.willSave(); LifecycleHookTests.log.add("willSave \(tag) deleted=\(isDeleted)") }
        override func didSave() { super.didSave(); LifecycleHookTests.log.add("didSave \(tag)") }
        override func prepareForDeletion() { super.prepareForDeletion(); LifecycleHookTests.log.add("prepareForDeletion \(tag)") }
        override func willTurnIntoFault() { super.willTurnIntoFault(); LifecycleHookTests.log.add("willTurnIntoFault") }
        override func didTurnIntoFault() { super.didTurnIntoFault(); LifecycleHookTests.log.add("didTurnIntoFault") }
    }

    private func stack() throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let diary = NSEntityDescription(name: "Diary")
        diary.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType),
                             NSAttributeDescription(name: "created", type: .dateAttributeType)])
        let model = NSManagedObjectModel(entities: [diary])
        NSManagedObject.register(Diary.self, forEntityName: "Diary")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("D.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        _ = Self.log.take()
        return (coordinator, context)
    }

    @Test func insertSaveFetchAndDeleteCallTheHooksInApplesOrder() throws {
        let (coordinator, context) = try stack()
        try context.performAndWait {
            let entry = NSEntityDescription.insertNewObject(forEntityName: "Diary", into: context) as! Diary
            #expect(Self.log.take() == ["awakeFromInsert"])
            #expect(entry.created == Date(timeIntervalSinceReferenceDate: 0))
            entry.title = "first"
            try context.save()
            #expect(Self.log.take() == ["willSave first deleted=false", "didSave first"])
            // Saving with no changes calls nothing.
            try context.save()
            #expect(Self.log.take().isEmpty)
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Diary")
            request.returnsObjectsAsFaults = true
            let fetched = try reader.fetch(request)
            #expect(Self.log.take().isEmpty, "a fault is not awake yet")
            let entry = try #require(fetched.first as? Diary)
            #expect(entry.title == "first")
            #expect(Self.log.take() == ["awakeFromFetch first"])
            reader.refresh(entry, mergeChanges: false)
            #expect(Self.log.take() == ["willTurnIntoFault", "didTurnIntoFault"])
            #expect(entry.title == "first")
            #expect(Self.log.take() == ["awakeFromFetch first"])
            reader.delete(entry)
            reader.processPendingChanges()
            #expect(Self.log.take() == ["prepareForDeletion first"])
            try reader.save()
            #expect(Self.log.take() == ["willSave first deleted=true", "didSave first", "willTurnIntoFault", "didTurnIntoFault"])
        }
    }

    @Test func anInsertedObjectTurnedIntoAFaultCallsTheFaultHooksAndIsNotAwokenAsFetched() throws {
        let (_, context) = try stack()
        context.performAndWait {
            let entry = NSEntityDescription.insertNewObject(forEntityName: "Diary", into: context) as! Diary
            entry.title = "draft"
            _ = Self.log.take()
            context.refresh(entry, mergeChanges: false)
            #expect(Self.log.take() == ["willTurnIntoFault", "didTurnIntoFault"])
            // It takes its own values back: nothing was fetched, so awakeFromFetch is not called.
            #expect(entry.title == "draft")
            #expect(Self.log.take().isEmpty)
        }
    }

    @Test func anObjectFetchedWithItsValuesAwakesOnce() throws {
        let (_, context) = try stack()
        try context.performAndWait {
            let entry = NSEntityDescription.insertNewObject(forEntityName: "Diary", into: context) as! Diary
            entry.title = "kept"
            try context.save()
            context.reset()
            _ = Self.log.take()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Diary")
            request.returnsObjectsAsFaults = false
            let fetched = try context.fetch(request)
            #expect((fetched.first as? Diary)?.title == "kept")
            #expect(Self.log.take() == ["awakeFromFetch kept"])
        }
    }

    @Test func undoAndRollbackWakeTheObjectFromItsSnapshot() throws {
        let (_, context) = try stack()
        try context.performAndWait {
            context.undoManager = UndoManager()
            let entry = NSEntityDescription.insertNewObject(forEntityName: "Diary", into: context) as! Diary
            entry.title = "draft"
            try context.save()
            _ = Self.log.take()
            entry.title = "changed"
            context.rollback()
            #expect(entry.title == "draft")
            #expect(Self.log.take() == ["awake(fromSnapshotEvents: \(NSSnapshotEventType.rollback.rawValue)) draft"])
        }
    }
}
