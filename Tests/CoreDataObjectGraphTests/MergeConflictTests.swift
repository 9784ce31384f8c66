import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Optimistic-locking conflicts as Apple reports them: a save that meets a row changed since it was read fails with
/// `NSManagedObjectMergeError` and one `NSMergeConflict` per object under `"conflictList"`, each with the snapshots and
/// versions of the layers that disagree.
@Suite(.serialized)
struct MergeConflictTests {
    /// `Member`: `name`, `score`, and a to-one `mentor`.
    static func model() -> NSManagedObjectModel {
        let member = NSEntityDescription(name: "Member")
        let mentor = NSRelationshipDescription(name: "mentor", destinationEntityName: "Member")
        mentor.maxCount = 1
        mentor.deleteRule = .nullifyDeleteRule
        member.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType),
                              NSAttributeDescription(name: "score", type: .integer64AttributeType), mentor])
        return NSManagedObjectModel(entities: [member])
    }

    static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    static func coordinator(_ url: URL, _ model: NSManagedObjectModel) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        return coordinator
    }

    /// A saved member "Ada" (score 1) read by `mine`, then renamed "Augusta" (score 2) by `theirs`; `mine` changes its
    /// score to 10 and saves. Returns `mine`'s object and the save's outcome.
    static func conflictingSave(mine: NSManagedObjectContext, theirs: NSManagedObjectContext,
                                policy: NSMergePolicy = .error) throws -> (NSManagedObject, Result<Void, any Error>) {
        let member = try mine.performAndWait {
            let member = NSEntityDescription.insertNewObject(forEntityName: "Member", into: mine)
            member.setValue("Ada", forKey: "name")
            member.setValue(1, forKey: "score")
            try mine.save()
            mine.mergePolicy = policy
            return member
        }
        try theirs.performAndWait {
            let theirCopy = try theirs.existingObject(with: member.objectID)
            theirCopy.setValue("Augusta", forKey: "name")
            theirCopy.setValue(2, forKey: "score")
            try theirs.save()
        }
        let result = mine.performAndWait {
            member.setValue(10, forKey: "score")
            return Result { try mine.save() }
        }
        return (member, result)
    }

    private static func mergeError(_ result: Result<Void, any Error>) throws -> NSError {
        guard case .failure(let error) = result else {
            Issue.record("the conflicting save succeeded")
            throw CancellationError()
        }
        return error as NSError
    }

    /// Two contexts of one coordinator: the coordinator's cache already holds the other context's save, so the
    /// conflict is between the context and the cache: a cached snapshot and no persisted one.
    @Test func aConflictWithAnotherContextCarriesTheCachedRow() throws {
        let coordinator = try Self.coordinator(TemporaryDirectory.make().appendingPathComponent("Members.sqlite"), Self.model())
        let mine = Self.context(coordinator)
        let (member, result) = try Self.conflictingSave(mine: mine, theirs: Self.context(coordinator))
        let error = try Self.mergeError(result)
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError)
        let conflicts = try #require(error.userInfo["conflictList"] as? [NSMergeConflict])
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.sourceObject === member)
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(conflict.objectSnapshot?["name"] as? String == "Ada", "what the object read, not its unsaved change")
        #expect(conflict.objectSnapshot?["score"] as? Int == 1)
        #expect(conflict.objectSnapshot?["mentor"] is NSNull, "a nil to-one is NSNull in a snapshot")
        #expect(conflict.cachedSnapshot?["name"] as? String == "Augusta")
        #expect(conflict.cachedSnapshot?["score"] as? Int == 2)
        #expect(conflict.persistedSnapshot == nil)
        mine.performAndWait {
            #expect(member.value(forKey: "score") as? Int == 10, "the failed save keeps the change")
            #expect(mine.hasChanges)
        }
    }

    /// Two coordinators on one file: this coordinator's copy is stale too, so the conflict carries the row as this
    /// coordinator knew it (cached) and as the store holds it (persisted).
    @Test func aConflictWithAnotherCoordinatorCarriesBothRows() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Members.sqlite")
        let model = Self.model()
        let mine = Self.context(try Self.coordinator(url, model))
        let theirs = Self.context(try Self.coordinator(url, model))
        let (member, result) = try Self.conflictingSave(mine: mine, theirs: theirs)
        let error = try Self.mergeError(result)
        #expect(error.code == NSManagedObjectMergeError)
        let conflict = try #require((error.userInfo["conflictList"] as? [NSMergeConflict])?.first)
        #expect(conflict.sourceObject === member)
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(conflict.cachedSnapshot?["name"] as? String == "Ada")
        #expect(conflict.persistedSnapshot?["name"] as? String == "Augusta")
        #expect(conflict.persistedSnapshot?["score"] as? Int == 2)
        #expect((error.userInfo[NSAffectedObjectsErrorKey] as? [NSManagedObjectID]) == [member.objectID])
    }

    /// A row deleted underneath: version 0 and no persisted snapshot, as Apple documents.
    @Test func aRowDeletedInTheStoreIsVersionZero() throws {
        let coordinator = try Self.coordinator(TemporaryDirectory.make().appendingPathComponent("Members.sqlite"), Self.model())
        let mine = Self.context(coordinator), theirs = Self.context(coordinator)
        let member = try mine.performAndWait {
            let member = NSEntityDescription.insertNewObject(forEntityName: "Member", into: mine)
            member.setValue("Ada", forKey: "name")
            try mine.save()
            return member
        }
        try theirs.performAndWait {
            theirs.delete(try theirs.existingObject(with: member.objectID))
            try theirs.save()
        }
        let result = mine.performAndWait {
            member.setValue("Countess", forKey: "name")
            return Result { try mine.save() }
        }
        let conflict = try #require((try Self.mergeError(result).userInfo["conflictList"] as? [NSMergeConflict])?.first)
        #expect(conflict.newVersionNumber == 0 && conflict.oldVersionNumber == 1)
        #expect(conflict.persistedSnapshot == nil)
    }

    /// `detectConflicts(for:)` reports its conflict the same way.
    @Test func aMarkedObjectsConflictIsListed() throws {
        let coordinator = try Self.coordinator(TemporaryDirectory.make().appendingPathComponent("Members.sqlite"), Self.model())
        let mine = Self.context(coordinator), theirs = Self.context(coordinator)
        let (watched, other) = try mine.performAndWait {
            let watched = NSEntityDescription.insertNewObject(forEntityName: "Member", into: mine)
            watched.setValue("Ada", forKey: "name")
            let other = NSEntityDescription.insertNewObject(forEntityName: "Member", into: mine)
            try mine.save()
            mine.detectConflicts(for: watched)
            return (watched, other)
        }
        try theirs.performAndWait {
            try theirs.existingObject(with: watched.objectID).setValue("Augusta", forKey: "name")
            try theirs.save()
        }
        let result = mine.performAndWait {
            other.setValue("Charles", forKey: "name")
            return Result { try mine.save() }
        }
        let error = try Self.mergeError(result)
        let conflict = try #require((error.userInfo["conflictList"] as? [NSMergeConflict])?.first)
        #expect(conflict.sourceObject === watched)
        #expect(conflict.objectSnapshot?["name"] as? String == "Ada")
        #expect(conflict.cachedSnapshot?["name"] as? String == "Augusta")
    }

    /// A conflict made with Apple's initialiser resolves like the save's own: the policy reads the store's row.
    @Test func aConflictMadeByHandResolvesAgainstTheStore() throws {
        let coordinator = try Self.coordinator(TemporaryDirectory.make().appendingPathComponent("Members.sqlite"), Self.model())
        let mine = Self.context(coordinator)
        let (member, result) = try Self.conflictingSave(mine: mine, theirs: Self.context(coordinator))
        #expect(throws: (any Error).self) { try result.get() }
        try mine.performAndWait {
            let conflict = NSMergeConflict(source: member, newVersion: 2, oldVersion: 1, cachedSnapshot: nil, persistedSnapshot: nil)
            #expect(conflict.objectSnapshot?["name"] as? String == "Ada")
            try NSMergePolicy.mergeByPropertyObjectTrump.resolve(mergeConflicts: [conflict])
            #expect(member.value(forKey: "name") as? String == "Augusta", "the store's change the object did not make")
            #expect(member.value(forKey: "score") as? Int == 10, "the object's own change")
            try mine.save()
        }
    }
}
