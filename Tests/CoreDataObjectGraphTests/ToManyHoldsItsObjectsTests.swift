import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import Testing

/// A fulfilled to-many relationship holds its destination objects, as Apple's does, until its source turns back into
/// a fault: code that batch-faults `person.cars` (one fetch of all of them, Apple's documented way to fire many
/// faults) finds them fired at the next read of `person.cars`, though it kept no reference to the set.
struct ToManyHoldsItsObjectsTests {
    final class Box: @unchecked Sendable { weak var object: NSManagedObject? }

    @Test func objectsReadThroughAToManyLiveAsLongAsTheirSourceHoldsThem() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 5)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let chef = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef")).first)
            stack.context.refreshAllObjects()
            let boxes: [Box] = ((chef.value(forKey: "recipes") as? Set<NSManagedObject>) ?? []).map { object in
                let box = Box()
                box.object = object
                return box
            }
            #expect(!boxes.isEmpty)
            #expect(boxes.allSatisfy { $0.object != nil }, "the chef holds the recipes it has read")

            // Batch-fault them through a fresh read of the relationship, holding nothing else.
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: "self IN %@", argumentArray: [Array((chef.value(forKey: "recipes") as? Set<NSManagedObject>) ?? [])])
            request.returnsObjectsAsFaults = false
            _ = try stack.context.fetch(request)
            let again = (chef.value(forKey: "recipes") as? Set<NSManagedObject>) ?? []
            #expect(again.count == boxes.count)
            #expect(again.allSatisfy { !$0.isFault }, "the fired objects are the ones the relationship holds")

            // Turning the chef back into a fault lets them go.
            stack.context.refresh(chef, mergeChanges: false)
            #expect(chef.isFault)
        }
    }
}
