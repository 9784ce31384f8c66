import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// A policy that resolves uniqueness conflicts by keeping what the store has: the conflicting new objects are deleted.
final class KeepStoredObjectsPolicy: NSMergePolicy, @unchecked Sendable {
    private(set) var received: [NSConstraintConflict] = []

    init() { super.init(merge: .errorMergePolicyType) }

    override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        received += list
        for conflict in list {
            // A store-level conflict drops the new object; a context-level one keeps the first.
            let dropped = conflict.databaseObject == nil ? conflict.conflictingObjects.dropFirst() : conflict.conflictingObjects[...]
            for object in dropped where object.isInserted { object.managedObjectContext?.delete(object) }
        }
    }
}

/// Uniqueness constraints at save time: a save that would give two objects a constraint's values fails with
/// `NSManagedObjectConstraintMergeError` and `NSConstraintConflict`s under `"conflictList"`, before writing anything.
@Suite(.serialized)
struct ConstraintConflictTests {
    /// `Account`: `email` unique, `name`, `handle` unique with `name` (a constraint of two properties).
    private static func model() -> NSManagedObjectModel {
        let account = NSEntityDescription(name: "Account")
        account.setProperties([NSAttributeDescription(name: "email", type: .stringAttributeType),
                               NSAttributeDescription(name: "name", type: .stringAttributeType),
                               NSAttributeDescription(name: "handle", type: .stringAttributeType)])
        account.uniquenessConstraints = [["email"], ["name", "handle"]]
        return NSManagedObjectModel(entities: [account])
    }

    private func context(storeType: String = NSSQLiteStoreType) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let url = storeType == NSInMemoryStoreType ? nil : try TemporaryDirectory.make().appendingPathComponent("Accounts.sqlite")
        try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @discardableResult
    private func insert(_ email: String?, name: String = "Ada", handle: String? = nil, into context: NSManagedObjectContext) -> NSManagedObject {
        let account = NSEntityDescription.insertNewObject(forEntityName: "Account", into: context)
        account.setValue(email, forKey: "email")
        account.setValue(name, forKey: "name")
        account.setValue(handle, forKey: "handle")
        return account
    }

    private func count(_ context: NSManagedObjectContext) throws -> Int {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Account")
        request.includesPendingChanges = false
        return try context.count(for: request)
    }

    /// A new object with the values of a saved row: a store-level conflict naming the row's object and its values.
    @Test func aNewObjectMeetingAStoredRowConflicts() throws {
        let context = try context()
        try context.performAndWait {
            let saved = insert("ada@example.com", into: context)
            try context.save()
            let duplicate = insert("ada@example.com", name: "Ada L.", into: context)
            do {
                try context.save()
                Issue.record("a duplicate was saved")
            } catch {
                let nsError = error as NSError
                #expect(nsError.domain == NSCocoaErrorDomain && nsError.code == NSManagedObjectConstraintMergeError)
                let conflicts = try #require(nsError.userInfo["conflictList"] as? [NSConstraintConflict])
                #expect(conflicts.count == 1)
                let conflict = try #require(conflicts.first)
                #expect(conflict.constraint == ["email"])
                #expect(conflict.constraintValues["email"] as? String == "ada@example.com")
                #expect(conflict.databaseObject?.objectID == saved.objectID)
                #expect(conflict.databaseSnapshot?["email"] as? String == "ada@example.com")
                #expect(conflict.databaseSnapshot?["name"] as? String == "Ada")
                #expect(conflict.conflictingObjects.count == 1 && conflict.conflictingObjects.first === duplicate)
                #expect(conflict.conflictingSnapshots.count == 1 && conflict.conflictingSnapshots.first?.isEmpty == true,
                        "an object never saved has no snapshot")
            }
            #expect(try count(context) == 1, "nothing was written")
            #expect(duplicate.isInserted && context.hasChanges, "the failed save keeps the object")
        }
    }

    /// New objects sharing values among themselves: a context-level conflict, without a database object.
    @Test func newObjectsSharingValuesConflictAmongThemselves() throws {
        let context = try context()
        try context.performAndWait {
            let first = insert("a@example.com", name: "Ada", handle: "ada", into: context)
            let second = insert("b@example.com", name: "Ada", handle: "ada", into: context)
            insert("c@example.com", name: "Ada", handle: nil, into: context)
            insert("d@example.com", name: "Ada", handle: nil, into: context)
            do {
                try context.save()
                Issue.record("duplicates were saved")
            } catch {
                let conflicts = try #require((error as NSError).userInfo["conflictList"] as? [NSConstraintConflict])
                #expect(conflicts.count == 1, "a nil handle never conflicts, as in the store's unique index")
                let conflict = try #require(conflicts.first)
                #expect(conflict.constraint == ["name", "handle"])
                #expect(conflict.databaseObject == nil && conflict.databaseSnapshot == nil)
                #expect(conflict.conflictingObjects.map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
                #expect(conflict.conflictingSnapshots.count == 2)
                #expect(conflict.constraintValues["handle"] as? String == "ada")
            }
            #expect(try count(context) == 0)
        }
    }

    /// A constraint of two properties meets a stored row only when both values match.
    @Test func aConstraintOfTwoPropertiesMeetsARowOnBoth() throws {
        let context = try context()
        try context.performAndWait {
            let saved = insert("a@example.com", name: "Ada", handle: "ada", into: context)
            try context.save()
            insert("b@example.com", name: "Ada", handle: "countess", into: context)
            insert("c@example.com", name: "Augusta", handle: "ada", into: context)
            try context.save()
            let duplicate = insert("d@example.com", name: "Ada", handle: "ada", into: context)
            let error = #expect(throws: (any Error).self) { try context.save() }
            let conflicts = try #require(error.map { $0 as NSError }?.userInfo["conflictList"] as? [NSConstraintConflict])
            #expect(conflicts.count == 1)
            #expect(conflicts.first?.constraint == ["name", "handle"])
            #expect(conflicts.first?.databaseObject === saved && conflicts.first?.conflictingObjects.first === duplicate)
        }
    }

    /// The in-memory store is checked the same way (it has no unique index of its own).
    @Test func theInMemoryStoreRefusesDuplicatesToo() throws {
        let context = try context(storeType: NSInMemoryStoreType)
        try context.performAndWait {
            insert("ada@example.com", into: context)
            try context.save()
            insert("ada@example.com", into: context)
            let error = #expect(throws: (any Error).self) { try context.save() }
            #expect(error.map { $0 as NSError }?.code == NSManagedObjectConstraintMergeError)
            #expect(try count(context) == 1)
        }
    }

    /// Changing a saved object to another's values conflicts, with the changed object's saved values as its snapshot.
    @Test func updatesAreCheckedAgainstTheirNewValues() throws {
        let context = try context()
        try context.performAndWait {
            let ada = insert("ada@example.com", into: context)
            let bob = insert("bob@example.com", name: "Bob", into: context)
            try context.save()
            bob.setValue("ada@example.com", forKey: "email")
            let error = #expect(throws: (any Error).self) { try context.save() }
            let conflict = try #require((error.map { $0 as NSError }?.userInfo["conflictList"] as? [NSConstraintConflict])?.first)
            #expect(conflict.databaseObject === ada && conflict.conflictingObjects.first === bob)
            #expect(conflict.conflictingSnapshots.first?["email"] as? String == "bob@example.com")
            bob.setValue("robert@example.com", forKey: "email")
            try context.save()
            ada.setValue("ada.l@example.com", forKey: "email")
            try context.save()
            #expect(try count(context) == 2)
        }
    }

    /// A policy subclass that resolves the conflicts (here by dropping the new duplicates) lets the save through.
    @Test func aPolicyThatResolvesTheConflictsLetsTheSaveThrough() throws {
        let context = try context()
        let policy = KeepStoredObjectsPolicy()
        try context.performAndWait {
            insert("ada@example.com", into: context)
            try context.save()
            context.mergePolicy = policy
            let duplicate = insert("ada@example.com", into: context)
            let fresh = insert("bob@example.com", into: context)
            try context.save()
            #expect(policy.received.count == 1 && policy.received.first?.conflictingObjects.first === duplicate)
            #expect(!context.insertedObjects.contains(duplicate) && !fresh.isInserted && !context.hasChanges)
            #expect(try count(context) == 2)
        }
    }
}
