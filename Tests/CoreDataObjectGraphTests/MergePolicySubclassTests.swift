import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// A policy that records what the save hands it, then does what its type does (Apple's documentation: an override
/// should call `super`).
final class RecordingMergePolicy: NSMergePolicy, @unchecked Sendable {
    private(set) var calls: [String] = []
    private(set) var received: [NSMergeConflict] = []

    override func resolve(mergeConflicts list: [Any]) throws {
        calls.append("mergeConflicts(\(list.count))")
        try super.resolve(mergeConflicts: list)
    }

    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        calls.append("optimisticLockingConflicts(\(list.count))")
        received += list
        try super.resolve(optimisticLockingConflicts: list)
    }
}

/// A policy that resolves optimistic-locking conflicts itself, without `super`: the store's row wins for the name,
/// the object's change for everything else, and the object is told it saw the row's version.
final class KeepTheirNamePolicy: NSMergePolicy, @unchecked Sendable {
    init() { super.init(merge: .errorMergePolicyType) }

    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        for conflict in list {
            let object = conflict.sourceObject
            let score = object.value(forKey: "score")
            object.managedObjectContext?.refresh(object, mergeChanges: false)
            object.setValue(score, forKey: "score")
        }
    }
}

/// `NSMergePolicy` subclasses: the save calls the context's policy object, so an override runs.
@Suite(.serialized)
struct MergePolicySubclassTests {
    private func stack() throws -> (mine: NSManagedObjectContext, theirs: NSManagedObjectContext) {
        let coordinator = try MergeConflictTests.coordinator(
            TemporaryDirectory.make().appendingPathComponent("Members.sqlite"), MergeConflictTests.model())
        return (MergeConflictTests.context(coordinator), MergeConflictTests.context(coordinator))
    }

    @Test func anOverrideRunsAndItsSuperResolves() throws {
        let (mine, theirs) = try stack()
        let policy = RecordingMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        let (member, result) = try MergeConflictTests.conflictingSave(mine: mine, theirs: theirs, policy: policy)
        #expect(throws: Never.self) { try result.get() }
        #expect(policy.calls == ["mergeConflicts(1)", "optimisticLockingConflicts(1)"])
        #expect(policy.received.first?.sourceObject === member)
        #expect(policy.received.first?.newVersionNumber == 2)
        try mine.performAndWait {
            #expect(member.value(forKey: "name") as? String == "Augusta", "super merged the store's change in")
            #expect(member.value(forKey: "score") as? Int == 10, "and kept the object's")
            mine.refresh(member, mergeChanges: false)
            let row = try #require(try mine.fetch(NSFetchRequest<NSManagedObject>(entityName: "Member")).first)
            #expect(row.value(forKey: "score") as? Int == 10)
        }
    }

    /// A subclass of the error policy that calls `super` fails the save with the conflicts, as the error policy does.
    @Test func anErrorPolicySubclassCallingSuperFails() throws {
        let (mine, theirs) = try stack()
        let policy = RecordingMergePolicy(merge: .errorMergePolicyType)
        let (_, result) = try MergeConflictTests.conflictingSave(mine: mine, theirs: theirs, policy: policy)
        #expect(policy.calls == ["mergeConflicts(1)", "optimisticLockingConflicts(1)"])
        guard case .failure(let error) = result else {
            Issue.record("the conflicting save succeeded")
            return
        }
        #expect((error as NSError).code == NSManagedObjectMergeError)
        #expect(((error as NSError).userInfo["conflictList"] as? [NSMergeConflict])?.first === policy.received.first)
    }

    /// An override that resolves the conflicts itself, without `super`, lets the save through with its outcome.
    @Test func anOverrideResolvingByItselfLetsTheSaveThrough() throws {
        let (mine, theirs) = try stack()
        let (member, result) = try MergeConflictTests.conflictingSave(mine: mine, theirs: theirs, policy: KeepTheirNamePolicy())
        #expect(throws: Never.self) { try result.get() }
        mine.performAndWait {
            #expect(member.value(forKey: "name") as? String == "Augusta")
            #expect(member.value(forKey: "score") as? Int == 10)
            #expect(!mine.hasChanges)
        }
    }
}
