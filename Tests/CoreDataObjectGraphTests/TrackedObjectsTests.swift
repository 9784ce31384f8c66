@testable import CoreDataObjectGraph
import CoreDataModel
import Testing

/// `TrackedObjects` keeps its members in the order they joined, with no duplicates, across removals and rejoins.
struct TrackedObjectsTests {
    private static let entity: NSEntityDescription = {
        let entity = NSEntityDescription(name: "Item")
        entity.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType)])
        return entity
    }()

    private func objects(_ count: Int) -> [NSManagedObject] {
        (0..<count).map { _ in NSManagedObject(entity: Self.entity, insertInto: nil) }
    }

    @Test func membersComeInTheOrderTheyJoinedAndJoinOnce() {
        let items = objects(5)
        var set = TrackedObjects(.changed)
        for item in items + items.reversed() { set.insert(item) }
        #expect(Array(set.values) == items)
        #expect(set.count == 5 && !set.isEmpty)
        #expect(items.allSatisfy(set.contains))
    }

    @Test func anObjectThatLeavesAndJoinsAgainAppearsOnceAtItsNewPlace() {
        let items = objects(4)
        var set = TrackedObjects(.changed)
        for item in items { set.insert(item) }
        set.remove(items[1])
        #expect(!set.contains(items[1]))
        #expect(Array(set.values) == [items[0], items[2], items[3]])
        set.insert(items[1])
        #expect(Array(set.values) == [items[0], items[2], items[3], items[1]])
        #expect(set.count == 4)
    }

    @Test func agreesWithAnOrderedReferenceThroughManyRemovalsAndCompactions() {
        let items = objects(300)
        var set = TrackedObjects(.unposted)
        var reference: [NSManagedObject] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let item = items[Int.random(in: 0..<items.count, using: &generator)]
            if Bool.random(using: &generator) {
                set.insert(item)
                if !reference.contains(where: { $0 === item }) { reference.append(item) }
            } else {
                set.remove(item)
                reference.removeAll { $0 === item }
            }
            #expect(set.count == reference.count)
        }
        #expect(Array(set.values) == reference)
        set.removeAll(where: { _ in true })
        #expect(set.isEmpty && Array(set.values).isEmpty)
    }

    @Test func theTwoMembershipsAreIndependentAndRemoveAllClearsOnlyItsOwnMarks() {
        let items = objects(3)
        var changed = TrackedObjects(.changed)
        var unposted = TrackedObjects(.unposted)
        for item in items {
            changed.insert(item)
            unposted.insert(item)
        }
        unposted.removeAll()
        #expect(unposted.isEmpty && items.allSatisfy { !unposted.contains($0) })
        #expect(Array(changed.values) == items && items.allSatisfy(changed.contains))
    }

    @Test func aStaleEntryOfOneSetDoesNotCountForAnObjectThatJoinedAnotherSet() {
        let item = objects(1)[0]
        var first = TrackedObjects(.changed)
        var second = TrackedObjects(.changed)
        first.insert(item)
        first.remove(item)
        second.insert(item)  // as when an object leaves one context and is inserted into another
        #expect(Array(first.values).isEmpty && first.isEmpty)
        #expect(Array(second.values) == [item])
    }
}
