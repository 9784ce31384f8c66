import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import Testing

/// Object IDs as predicate constants reach the SQL store as primary keys (the browser filters a to-many's
/// destinations through the inverse this way).
struct ObjectIDConstantTests {
    @Test func toOneComparisonAndInListWithObjectIDs() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let chefRequest = NSFetchRequest<NSManagedObjectID>(entityName: "Chef")
            chefRequest.resultType = .managedObjectIDResultType
            let chefs = try stack.context.fetch(chefRequest)
            let chef = try #require(chefs.first)
            let byChef = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            byChef.predicate = Predicates.NSPredicate(format: "chef == %@", argumentArray: [chef])
            let recipes = try stack.context.fetch(byChef)
            #expect(!recipes.isEmpty)
            #expect(recipes.allSatisfy { ($0.value(forKey: "chef") as? NSManagedObject)?.objectID == chef })

            let some = Array(recipes.prefix(2).map(\.objectID))
            let inList = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            inList.predicate = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [some])
            #expect(Set(try stack.context.fetch(inList).map(\.objectID)) == Set(some))
        }
    }
}

