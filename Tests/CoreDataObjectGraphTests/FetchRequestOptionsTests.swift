import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// Result types, dictionary results with key paths, grouping, HAVING and DISTINCT, predicates, and typed
/// subclasses, each checked against SQL on the same store.
struct FetchRequestOptionsTests {
    private func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        try Connection(path: url.path, mode: .readOnly).query(query)
    }

    @Test func typedSubclassesReadThroughManagedProperties() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<Recipe>(entityName: "Recipe"))
            #expect(recipes.count == 6)
            #expect(recipes[0].name == "Recipe 1" && recipes[0].minutes == 5)
            #expect(recipes[2].rating == nil && recipes[0].rating == 1)
            #expect(recipes[0].chef?.value(forKey: "name") as? String == "Chef 1")
            recipes[0].minutes = 12
            try stack.context.save()
        }
        #expect(try sql(url, "SELECT ZMINUTES FROM ZRECIPE WHERE Z_PK = 1")[0][0] == .integer(12))
    }

    @Test func typedReadsConvertOnlyWhatFitsExactly() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let recipe = try stack.context.fetch(request)[0]
            #expect(recipe.isFault, "the first typed read fires the fault")
            #expect(recipe.value(forKey: "name", as: String.self) == "Recipe 1")
            #expect(recipe.value(forKey: "name", as: String?.self) == .some("Recipe 1"))
            #expect(recipe.value(forKey: "name", as: Int.self) == nil, "another type reads as nil, not converted")
            #expect(recipe.value(forKey: "minutes", as: Int16.self) == 5)
            #expect(recipe.value(forKey: "minutes", as: Int.self) == 5)
            #expect(recipe.value(forKey: "minutes", as: Int64.self) == 5)
            #expect(recipe.value(forKey: "minutes", as: Int8.self) == nil, "Int8 is not one of the integer conversions")
            #expect(recipe.value(forKey: "minutes", as: Double.self) == nil)
            #expect(recipe.value(forKey: "rating", as: Double.self) == 1)
            let chef = recipe.value(forKey: "chef", as: NSManagedObject.self)
            #expect(chef?.value(forKey: "name", as: String.self) == "Chef 1", "relationships read through value(forKey:)")
            let unrated = try stack.context.fetch(request)[2]
            #expect(unrated.value(forKey: "rating", as: Double.self) == nil, "a nil attribute")
        }
    }

    @Test func objectIDAndCountResults() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Recipe")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = Predicates.NSPredicate(format: "minutes >= %d", 15)
            let fetched = try stack.context.fetch(ids)
            #expect(fetched.map(\.primaryKey) == [3, 4, 5, 6])
            #expect(stack.context.registeredObjects.isEmpty, "no objects for an ID fetch")
            let counts = NSFetchRequest<NSNumber>(entityName: "Recipe")
            counts.resultType = .countResultType
            counts.predicate = ids.predicate
            #expect(try stack.context.fetch(counts).first?.intValue == 4)
        }
    }

    @Test func dictionariesWithKeyPathsGroupingHavingAndDistinct() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 12)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let perChef = NSFetchRequest<[String: Any]>(entityName: "Recipe")
            perChef.resultType = .dictionaryResultType
            let count = NSExpressionDescription(
                name: "recipes", expression: Predicates.NSExpression(forFunction: "count:", arguments: [Predicates.NSExpression.expressionForEvaluatedObject()]),
                resultType: .integer64AttributeType)
            let longest = NSExpressionDescription(
                name: "longest", expression: Predicates.NSExpression(forFunction: "max:", arguments: [Predicates.NSExpression(forKeyPath: "minutes")]))
            perChef.propertiesToFetch = ["chef.name", count, longest]
            perChef.propertiesToGroupBy = ["chef.name"]
            perChef.sortDescriptors = [Predicates.NSSortDescriptor(key: "chef.name", ascending: true)]
            let rows = try stack.context.fetch(perChef)
            let expected = try sql(url, """
                SELECT c.ZNAME, count(*), max(r.ZMINUTES) FROM ZRECIPE r LEFT JOIN ZCHEF c ON c.Z_PK = r.ZCHEF
                GROUP BY c.ZNAME ORDER BY c.ZNAME
                """)
            #expect(rows.count == expected.count)
            for (row, values) in zip(rows, expected) {
                #expect(row["chef.name"] as? String == values[0].stringValue)
                #expect(row["recipes"] as? Int64 == values[1].int64Value)
                #expect(row["longest"] as? Int64 == values[2].int64Value)
            }
            perChef.havingPredicate = Predicates.NSPredicate(format: "longest > %d", 50)
            let having = try stack.context.fetch(perChef)
            #expect(having.map { $0["chef.name"] as? String } == expected.filter { $0[2].int64Value! > 50 }.map(\.[0].stringValue))

            let distinct = NSFetchRequest<[String: Any]>(entityName: "Recipe")
            distinct.resultType = .dictionaryResultType
            distinct.propertiesToFetch = ["servings"]
            distinct.returnsDistinctResults = true
            #expect(try stack.context.fetch(distinct).count == 1, "every recipe serves 2")
        }
    }

    @Test func predicatesAndSortsRunInSQL() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 12)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: "chef.name == %@ AND ANY ingredients.quantity > 1", "Chef 3")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "minutes", ascending: false)]
            let keys = try stack.context.fetch(request).map(\.objectID.primaryKey)
            let expected = try sql(url, """
                SELECT r.Z_PK FROM ZRECIPE r JOIN ZCHEF c ON c.Z_PK = r.ZCHEF WHERE c.ZNAME = 'Chef 3'
                AND EXISTS (SELECT 1 FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK AND i.ZQUANTITY > 1) ORDER BY r.ZMINUTES DESC, r.Z_PK
                """).map { $0[0].int64Value! }
            #expect(keys == expected && !expected.isEmpty)
            #expect(try stack.context.count(for: request) == expected.count)
            let refused = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            refused.predicate = Predicates.NSPredicate(format: "minutes + 1 > 3")
            #expect(throws: CoreDataError.self) { try stack.context.fetch(refused) }
        }
    }
}
