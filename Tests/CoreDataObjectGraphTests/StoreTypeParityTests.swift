import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing
import UndoManagement

/// The store-agnostic tests of fetching and saving, run against every store type that answers through the store
/// interface: the SQLite store, and the in-memory, XML and binary stores (their objects migrated from the same SQLite
/// store, so all hold the same objects). Expectations come from SQL on the SQLite file, and name objects by their names, not their keys.
struct StoreTypeParityTests {
    static let storeTypes = [NSSQLiteStoreType, NSInMemoryStoreType, NSXMLStoreType, NSBinaryStoreType]

    /// The Recipes sample on a store of `type`, and the SQLite file it was made from (unchanged for in-memory stores).
    struct RecipesStack {
        let coordinator: NSPersistentStoreCoordinator
        let context: NSManagedObjectContext
        let sqliteURL: URL
        let store: NSPersistentStore

        init(_ type: String, chefs: Int = 3, recipes: Int = 12) throws {
            let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: chefs, recipes: recipes)
            sqliteURL = url
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            var store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
            if type != NSSQLiteStoreType {
                // The SQLite file keeps its rows: SQL on it states what the copy must answer.
                let scratch = try TemporaryDirectory.make().appendingPathComponent("store.\(type)")
                store = try coordinator.migratePersistentStore(store, to: scratch, withType: type)
            }
            self.store = store
            context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
        }

        func sql(_ query: String) throws -> [[SQLiteValue]] {
            try Connection(path: sqliteURL.path, mode: .readOnly).query(query)
        }

        func newContext() -> NSManagedObjectContext {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
    }

    private static func names(_ objects: [NSManagedObject]) -> [String] {
        objects.map { $0.value(forKey: "name") as? String ?? "?" }
    }

    @Test(arguments: storeTypes)
    func theStoreIsOfItsType(type: String) throws {
        let stack = try RecipesStack(type)
        #expect(stack.store.type == type)
        #expect(stack.coordinator.persistentStores.count == 1)
        #expect(stack.store.metadata[NSStoreTypeKey] as? String == type)
        #expect(stack.store.metadata[NSStoreUUIDKey] as? String == stack.store.identifier)
    }

    @Test(arguments: storeTypes)
    func predicatesThroughRelationshipsSortsLimitsAndCounts(type: String) throws {
        let stack = try RecipesStack(type)
        let expected = try stack.sql("""
            SELECT r.ZNAME FROM ZRECIPE r JOIN ZCHEF c ON c.Z_PK = r.ZCHEF WHERE c.ZNAME = 'Chef 3'
            AND EXISTS (SELECT 1 FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK AND i.ZQUANTITY > 1) ORDER BY r.ZMINUTES DESC, r.Z_PK
            """).map { $0[0].stringValue! }
        #expect(!expected.isEmpty)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: "chef.name == %@ AND ANY ingredients.quantity > 1", "Chef 3")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "minutes", ascending: false)]
            #expect(Self.names(try stack.context.fetch(request)) == expected)
            #expect(try stack.context.count(for: request) == expected.count)
            request.fetchOffset = 1
            request.fetchLimit = 1
            #expect(Self.names(try stack.context.fetch(request)) == Array(expected.dropFirst().prefix(1)))
            #expect(try stack.context.count(for: request) == 1)

            let strings = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            strings.predicate = Predicates.NSPredicate(format: "name BEGINSWITH[c] %@ AND (rating == nil OR rating >= 2) AND NOT name ENDSWITH '0'", "recipe 1")
            strings.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let matching = try stack.sql("""
                SELECT ZNAME FROM ZRECIPE WHERE lower(ZNAME) LIKE 'recipe 1%' AND (ZRATING IS NULL OR ZRATING >= 2)
                AND ZNAME NOT LIKE '%0' ORDER BY ZNAME
                """).map { $0[0].stringValue! }
            #expect(Self.names(try stack.context.fetch(strings)) == matching)
        }
    }

    @Test(arguments: storeTypes)
    func objectIDAndCountResultTypes(type: String) throws {
        let stack = try RecipesStack(type, chefs: 2, recipes: 6)
        try stack.context.performAndWait {
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Recipe")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = Predicates.NSPredicate(format: "minutes >= %d", 15)
            let fetched = try stack.context.fetch(ids)
            #expect(fetched.count == 4)
            #expect(stack.context.registeredObjects.isEmpty, "no objects for an ID fetch")
            #expect(Set(fetched.map { stack.context.object(with: $0).value(forKey: "name") as? String }) == ["Recipe 3", "Recipe 4", "Recipe 5", "Recipe 6"])
            let counts = NSFetchRequest<NSNumber>(entityName: "Recipe")
            counts.resultType = .countResultType
            counts.predicate = ids.predicate
            #expect(try stack.context.fetch(counts).first?.intValue == 4)
        }
    }

    @Test(arguments: storeTypes)
    func dictionariesWithKeyPathsAggregatesGroupingHavingAndDistinct(type: String) throws {
        let stack = try RecipesStack(type)
        let expected = try stack.sql("""
            SELECT c.ZNAME, count(*), max(r.ZMINUTES), sum(r.ZMINUTES), min(r.ZNAME) FROM ZRECIPE r LEFT JOIN ZCHEF c ON c.Z_PK = r.ZCHEF
            GROUP BY c.ZNAME ORDER BY c.ZNAME
            """)
        try stack.context.performAndWait {
            let perChef = NSFetchRequest<[String: Any]>(entityName: "Recipe")
            perChef.resultType = .dictionaryResultType
            func aggregate(_ name: String, _ function: String, _ argument: Predicates.NSExpression, _ type: NSAttributeType = .integer64AttributeType) -> NSExpressionDescription {
                NSExpressionDescription(name: name, expression: Predicates.NSExpression(forFunction: function, arguments: [argument]), resultType: type)
            }
            perChef.propertiesToFetch = [
                "chef.name", aggregate("recipes", "count:", .expressionForEvaluatedObject()),
                aggregate("longest", "max:", Predicates.NSExpression(forKeyPath: "minutes")),
                aggregate("total", "sum:", Predicates.NSExpression(forKeyPath: "minutes")),
                aggregate("first", "min:", Predicates.NSExpression(forKeyPath: "name"), .stringAttributeType),
            ]
            perChef.propertiesToGroupBy = ["chef.name"]
            perChef.sortDescriptors = [Predicates.NSSortDescriptor(key: "chef.name", ascending: true)]
            let rows = try stack.context.fetch(perChef)
            #expect(rows.count == expected.count && !expected.isEmpty)
            for (row, values) in zip(rows, expected) {
                #expect(row["chef.name"] as? String == values[0].stringValue)
                #expect(row["recipes"] as? Int64 == values[1].int64Value)
                #expect(row["longest"] as? Int64 == values[2].int64Value)
                #expect(row["total"] as? Int64 == values[3].int64Value)
                #expect(row["first"] as? String == values[4].stringValue)
            }
            perChef.havingPredicate = Predicates.NSPredicate(format: "longest > %d", 50)
            let having = try stack.context.fetch(perChef)
            #expect(having.map { $0["chef.name"] as? String } == expected.filter { $0[2].int64Value! > 50 }.map(\.[0].stringValue))

            let distinct = NSFetchRequest<[String: Any]>(entityName: "Recipe")
            distinct.resultType = .dictionaryResultType
            distinct.propertiesToFetch = ["servings"]
            distinct.returnsDistinctResults = true
            #expect(try stack.context.fetch(distinct).count == 1, "every recipe serves 2")

            let plain = NSFetchRequest<[String: Any]>(entityName: "Recipe")
            plain.resultType = .dictionaryResultType
            plain.propertiesToFetch = ["name", "minutes", "chef"]
            plain.predicate = Predicates.NSPredicate(format: "name == 'Recipe 2'")
            let row = try #require(try stack.context.fetch(plain).first)
            #expect(row["name"] as? String == "Recipe 2" && row["minutes"] as? Int64 == 10)
            let chef = try #require(row["chef"] as? NSManagedObjectID)
            #expect(stack.context.object(with: chef).value(forKey: "name") as? String == "Chef 2")

            let overall = NSFetchRequest<[String: Any]>(entityName: "Recipe")
            overall.resultType = .dictionaryResultType
            overall.propertiesToFetch = [aggregate("average", "average:", Predicates.NSExpression(forKeyPath: "minutes"), .doubleAttributeType)]
            let average = try stack.sql("SELECT avg(ZMINUTES) FROM ZRECIPE")[0][0]
            #expect(try stack.context.fetch(overall).first?["average"] as? Double == average.doubleValue)
        }
    }

    @Test(arguments: storeTypes)
    func batchedFetchesPageForwardBackwardAndFromTheEnd(type: String) throws {
        let stack = try RecipesStack(type, chefs: 4, recipes: 45)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "minutes", ascending: true)]
            request.predicate = Predicates.NSPredicate(format: "minutes > 10")
            let all = Self.names(try stack.context.fetch(request))
            request.fetchBatchSize = 7
            let batched = try stack.context.fetchBatched(request)
            // The last batch first (read from the end), then the first, then each next one by keyset.
            #expect(batched.count == all.count)
            #expect(Self.names(try batched.objects(inBatch: (all.count - 1) / 7)) == Array(all[((all.count - 1) / 7 * 7)...]))
            var forward: [String] = []
            for batch in 0...((all.count - 1) / 7) { forward += Self.names(try batched.objects(inBatch: batch)) }
            #expect(forward == all)
            let again = try stack.context.fetchBatched(request)
            _ = try again.objects(inBatch: 3)
            #expect(Self.names(try again.objects(inBatch: 2)) == Array(all[14..<21]), "a batch before a loaded one, by keyset")
            let plainBatched = try stack.context.fetch(request)
            #expect(Self.names(plainBatched) == all, "fetch with a batch size returns every object")
        }
    }

    @Test(arguments: storeTypes)
    func savesInsertUpdateAndDeleteWithInversesAndOrder(type: String) throws {
        let stack = try RecipesStack(type, chefs: 2, recipes: 6)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let recipes = try stack.context.fetch(request)
            let chefs = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            let chef = try #require(chefs.first { $0.value(forKey: "name") as? String == "Chef 1" })
            let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: stack.context)
            recipe.setValue("Soup", forKey: "name")
            recipe.setValue("soup", forKey: "normalizedName")
            recipe.setValue(Int16(25), forKey: "minutes")
            recipe.setValue(Int16(4), forKey: "servings")
            recipe.setValue(false, forKey: "isVegetarian")
            recipe.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "created")
            recipe.setValue(UUID(), forKey: "identifier")
            recipe.setValue(chef, forKey: "chef")
            var ingredients: [NSManagedObject] = []
            for name in ["Water", "Salt", "Leek"] {
                let ingredient = NSEntityDescription.insertNewObject(forEntityName: "Ingredient", into: stack.context)
                ingredient.setValue(name, forKey: "name")
                ingredients.append(ingredient)
            }
            recipe.mutableOrderedSetValue(forKey: "ingredients").addObjects(from: ingredients)
            recipes[0].setValue("Recipe 1 renamed", forKey: "name")
            stack.context.delete(recipes[1])  // Recipe 2: its ingredients cascade
            try stack.context.save()
            #expect(!recipe.objectID.isTemporaryID && recipe.objectID.persistentStoreIdentifierForTests == stack.store.identifier)
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let names = Self.names(try fresh.fetch(request))
            #expect(names == ["Recipe 1 renamed", "Recipe 3", "Recipe 4", "Recipe 5", "Recipe 6", "Soup"])
            let soup = try #require(try fresh.fetch(request).last)
            #expect((soup.value(forKey: "chef") as? NSManagedObject)?.value(forKey: "name") as? String == "Chef 1")
            #expect(Self.names(soup.mutableOrderedSetValue(forKey: "ingredients").allObjects) == ["Water", "Salt", "Leek"], "order kept")
            let chef = try #require(soup.value(forKey: "chef") as? NSManagedObject)
            #expect((chef.value(forKey: "recipes") as? Set<NSManagedObject>)?.contains(soup) == true, "the inverse to-many")
            // Recipe 2 had 2 ingredients; both went with it.
            let orphans = NSFetchRequest<NSManagedObject>(entityName: "Ingredient")
            orphans.predicate = Predicates.NSPredicate(format: "recipe == nil")
            #expect(try fresh.count(for: orphans) == 0)
            // Reorder and move one ingredient to another recipe: both sides follow.
            let leek = try #require(soup.mutableOrderedSetValue(forKey: "ingredients").allObjects.last)
            let other = try fresh.fetch(request)[1]  // Recipe 3
            leek.setValue(other, forKey: "recipe")
            try fresh.save()
        }
        let third = stack.newContext()
        try third.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: "name IN %@", ["Soup", "Recipe 3"])
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let fetched = try third.fetch(request)
            #expect(Self.names(fetched[1].mutableOrderedSetValue(forKey: "ingredients").allObjects) == ["Water", "Salt"])
            #expect(Self.names(fetched[0].mutableOrderedSetValue(forKey: "ingredients").allObjects).last == "Leek")
            let withLeek = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            withLeek.predicate = Predicates.NSPredicate(format: "ANY ingredients.name == 'Leek'")
            #expect(Self.names(try third.fetch(withLeek)) == ["Recipe 3"])
        }
    }

    @Test(arguments: storeTypes)
    func aConflictingSaveIsRefusedThenResolvedByTheMergePolicy(type: String) throws {
        let stack = try RecipesStack(type, chefs: 2, recipes: 4)
        let other = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
        request.predicate = Predicates.NSPredicate(format: "name == 'Chef 1'")
        let mine = try stack.context.performAndWait { try stack.context.fetch(request)[0] }
        stack.context.performAndWait { _ = mine.value(forKey: "name") }
        try other.performAndWait {
            let theirs = try other.fetch(request)[0]
            theirs.setValue("theirs@example.com", forKey: "email")
            try other.save()
        }
        try stack.context.performAndWait {
            mine.setValue("mine@example.com", forKey: "email")
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .managedObjectMerge && error.affectedObjectIDs == [mine.objectID])
            stack.context.mergePolicy = .mergeByPropertyObjectTrump
            try stack.context.save()
        }
        #expect(stack.coordinator.persistentStores[0] === stack.store)
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let chef = try fresh.fetch(request)[0]
            #expect(chef.value(forKey: "email") as? String == "mine@example.com")
        }
    }

    @Test(arguments: storeTypes)
    func undoAndNestedContexts(type: String) throws {
        let stack = try RecipesStack(type, chefs: 2, recipes: 4)
        try stack.context.performAndWait {
            stack.context.undoManager = UndoManager()
            let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            chef.setValue("Undone", forKey: "name")
            chef.setValue(Int32(0), forKey: "recipeCount")
            stack.context.processPendingChanges()
            stack.context.undo()
            #expect(!stack.context.hasChanges)
            try stack.context.save()
            stack.context.undoManager = nil
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        try child.performAndWait {
            let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: child)
            chef.setValue("From the child", forKey: "name")
            chef.setValue(Int32(0), forKey: "recipeCount")
            try child.save()
        }
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.predicate = Predicates.NSPredicate(format: "name == 'From the child'")
            #expect(try stack.context.count(for: request) == 1, "the parent sees the child's save before its own")
            try stack.context.save()
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let names = Self.names(try fresh.fetch(request))
            #expect(names == ["Chef 1", "Chef 2", "From the child"])
        }
    }

    @Test(arguments: storeTypes)
    func manyToManyPrefetchingAndPendingChanges(type: String) throws {
        let stack = try RecipesStack(type, chefs: 2, recipes: 4)
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
            tag.setValue("quick", forKey: "label")
            tag.mutableSetValue(forKey: "recipes").addObjects(from: [recipes[0], recipes[2]])
            let pending = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            pending.predicate = Predicates.NSPredicate(format: "ANY tags.label == 'quick'")
            #expect(Set(Self.names(try stack.context.fetch(pending))) == ["Recipe 1", "Recipe 3"], "pending changes are fetched")
            try stack.context.save()
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: "ANY tags.label == 'quick'")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            request.relationshipKeyPathsForPrefetching = ["tags", "chef", "ingredients"]
            let tagged = try fresh.fetch(request)
            #expect(Self.names(tagged) == ["Recipe 1", "Recipe 3"])
            #expect((tagged[0].value(forKey: "tags") as? Set<NSManagedObject>)?.map { $0.value(forKey: "label") as? String } == ["quick"])
            #expect(Self.names(tagged[0].value(forKey: "chef").map { [$0 as! NSManagedObject] } ?? []) == ["Chef 1"])
        }
    }
}

extension NSManagedObjectID {
    /// The store identifier, for the tests' checks.
    var persistentStoreIdentifierForTests: String? { storeIdentifier }
}
