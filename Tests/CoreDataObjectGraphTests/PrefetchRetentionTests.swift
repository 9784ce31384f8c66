@testable import CoreDataObjectGraph
import CoreDataModel
import Foundation
import Testing

/// Prefetched destinations live as long as their source, once per relationship, and go when it turns into a fault.
struct PrefetchRetentionTests {
    @Test func repeatedPrefetchesKeepOneEntryPerRelationship() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.relationshipKeyPathsForPrefetching = ["chef", "ingredients"]
            var recipes: [NSManagedObject] = []
            for _ in 0..<3 { recipes = try stack.context.fetch(request) }
            for recipe in recipes {
                #expect(Set(recipe.prefetchedDestinations.keys) == ["chef", "ingredients"])
                #expect(recipe.prefetchedDestinations["chef"]?.count == 1, "a to-one holds its one destination, not one per fetch")
                let ingredients = recipe.objectIDs(forRelationshipNamed: "ingredients")
                #expect(recipe.prefetchedDestinations["ingredients"]?.map(\.objectID) == ingredients)
            }
            // The chef stays registered while a recipe holds it, though nothing else does.
            let chefID = try #require(recipes[0].objectIDForToOne("chef"))
            #expect(stack.context.registeredObject(for: chefID) != nil)
            stack.context.refresh(recipes[0], mergeChanges: false)
            #expect(recipes[0].prefetchedDestinations.isEmpty)
        }
    }
}
