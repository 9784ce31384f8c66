import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import Testing

/// Managed objects as predicate constants, as Apple's documentation on batch faulting writes them
/// (`NSPredicate(format: "self IN %@", objects)`, then a fetch that fires all their faults in one trip) and as
/// code compares a to-one (`chef == %@` with the chef object): they reach the SQL store as their primary keys.
struct ManagedObjectConstantTests {
    @Test func selfInAnArrayOfObjectsFetchesThoseObjects() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            let some = Array(recipes.prefix(3))
            stack.context.refreshAllObjects()
            #expect(some.allSatisfy { $0.isFault })

            let batch = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            batch.predicate = Predicates.NSPredicate(format: "self IN %@", argumentArray: [some])
            batch.returnsObjectsAsFaults = false
            let fetched = try stack.context.fetch(batch)
            #expect(Set(fetched.map(\.objectID)) == Set(some.map(\.objectID)))
            #expect(some.allSatisfy { !$0.isFault }, "the fetch fired the faults of the objects it named")
        }
    }

    @Test func aToOneComparedWithAnObject() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let chef = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef")).first)
            let byChef = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            byChef.predicate = Predicates.NSPredicate(format: "chef == %@", argumentArray: [chef])
            let recipes = try stack.context.fetch(byChef)
            #expect(!recipes.isEmpty)
            #expect(recipes.allSatisfy { ($0.value(forKey: "chef") as? NSManagedObject) === chef })
        }
    }

    /// CoreDataPlus batch-faults the faults of several entities with one list per entity fetch (`self IN %@` with all
    /// of them): an object of another entity is simply none of the fetched entity's objects.
    @Test func selfInAListMixingEntitiesMatchesTheFetchedEntitysObjects() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let recipes = Array(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe")).prefix(2))
            let chefs = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: "self IN %@", argumentArray: [chefs + recipes])
            #expect(Set(try stack.context.fetch(request).map(\.objectID)) == Set(recipes.map(\.objectID)))
            request.predicate = Predicates.NSPredicate(format: "self IN %@", argumentArray: [chefs])
            #expect(try stack.context.fetch(request).isEmpty)
        }
    }
}
