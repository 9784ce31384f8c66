import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// `FetchedDictionary`, the rows of `NSFetchRequest<FetchedDictionary>` with `.dictionaryResultType`: read like
/// `[String: Any]`, the same rows as `NSFetchRequest<[String: Any]>` returns, for every shape of dictionary fetch.
struct FetchedDictionaryTests {
    private func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        try Connection(path: url.path, mode: .readOnly).query(query)
    }

    /// The same request as typed rows and as `[String: Any]`.
    private func fetchBoth(_ context: NSManagedObjectContext, entity: String,
                           configure: (NSFetchRequest<FetchedDictionary>) -> Void) throws -> ([FetchedDictionary], [[String: Any]]) {
        let typed = NSFetchRequest<FetchedDictionary>(entityName: entity)
        typed.resultType = .dictionaryResultType
        configure(typed)
        let untyped = NSFetchRequest<[String: Any]>(entityName: entity)
        untyped.resultType = .dictionaryResultType
        untyped.predicate = typed.predicate
        untyped.sortDescriptors = typed.sortDescriptors
        untyped.propertiesToFetch = typed.propertiesToFetch
        untyped.propertiesToGroupBy = typed.propertiesToGroupBy
        untyped.havingPredicate = typed.havingPredicate
        untyped.returnsDistinctResults = typed.returnsDistinctResults
        untyped.fetchLimit = typed.fetchLimit
        untyped.fetchOffset = typed.fetchOffset
        return (try context.fetch(typed), try context.fetch(untyped))
    }

    /// Whether a row and a `[String: Any]` hold the same keys with equal values of the same types.
    private func agree(_ row: FetchedDictionary, _ dictionary: [String: Any]) -> Bool {
        guard row.count == dictionary.count, Set(row.keys) == Set(dictionary.keys) else { return false }
        return row.allSatisfy { key, value in
            guard let other = dictionary[key], type(of: other) == type(of: value) else { return false }
            return String(reflecting: other) == String(reflecting: value)
        }
    }

    @Test func rowsReadLikeDictionariesInTheirOwnTypes() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let (rows, dictionaries) = try fetchBoth(stack.context, entity: "Recipe") { request in
                request.propertiesToFetch = ["name", "minutes", "rating", "created", "isVegetarian", "identifier"]
                request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            }
            let expected = try sql(url, "SELECT ZNAME, ZMINUTES, ZRATING, ZCREATED, ZISVEGETARIAN, ZIDENTIFIER FROM ZRECIPE ORDER BY ZNAME")
            #expect(rows.count == expected.count && rows.count == 6)
            for ((row, dictionary), values) in zip(zip(rows, dictionaries), expected) {
                #expect(agree(row, dictionary), "\(row) against \(dictionary)")
                #expect([String: Any](row).count == dictionary.count)
                #expect(row["name"] as? String == values[0].stringValue)
                #expect(row["name", as: String.self] == values[0].stringValue)
                #expect(row["minutes"] as? Int64 == values[1].int64Value)
                #expect(row["minutes", as: Int64.self] == values[1].int64Value)
                #expect(row["minutes", as: Int.self] == values[1].int64Value.map(Int.init))
                #expect(row["minutes", as: Int16.self] == values[1].int64Value.map { Int16($0) })
                #expect(row["minutes", as: Int32.self] == values[1].int64Value.map { Int32($0) })
                #expect(row["minutes", as: String.self] == nil, "no conversion between unrelated types")
                #expect(row["created", as: Date.self] == values[3].doubleValue.map { Date(timeIntervalSinceReferenceDate: $0) })
                #expect(row["isVegetarian", as: Bool.self] == (values[4].int64Value == 1))
                #expect(row["identifier", as: UUID.self] != nil)
                #expect(row["identifier", as: UUID.self] == dictionary["identifier"] as? UUID)
                #expect(row["no such key"] == nil && row["no such key", as: String.self] == nil)
                if let rating = values[2].doubleValue {
                    #expect(row["rating", as: Double.self] == rating)
                    #expect(row.count == 6 && row.keys == ["name", "minutes", "rating", "created", "isVegetarian", "identifier"])
                } else {
                    // A NULL is left out, as Core Data does.
                    #expect(row["rating"] == nil && row["rating", as: Double.self] == nil)
                    #expect(row.count == 5 && row.keys == ["name", "minutes", "created", "isVegetarian", "identifier"])
                    #expect(dictionary["rating"] == nil)
                }
                #expect(row.values.count == row.count)
                #expect(row.map(\.key) == row.keys, "iteration follows the fetched order")
                #expect(!row.isEmpty)
            }
        }
    }

    @Test func equalityDescriptionAndConversion() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<FetchedDictionary>(entityName: "Recipe")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "minutes", "rating"]
            let first = try stack.context.fetch(request)
            let second = try stack.context.fetch(request)
            #expect(first == second, "rows of two fetches compare by keys and values")
            #expect(first[0] != first[1])
            // The same keys fetched in another order are the same dictionary.
            request.propertiesToFetch = ["rating", "name", "minutes"]
            let reordered = try stack.context.fetch(request)
            #expect(reordered == first)
            #expect(reordered[0].keys == ["rating", "name", "minutes"])
            // Recipe 3 has no rating: a row without the key differs from one with it.
            request.propertiesToFetch = ["name", "minutes"]
            let withoutRating = try stack.context.fetch(request)
            #expect(withoutRating[2] == first[2], "a NULL rating is no key at all")
            #expect(withoutRating[0] != first[0])
            #expect(first[0].description == #"["name": "Recipe 1", "minutes": 5, "rating": 1.0]"#)
            #expect(first[2].description == #"["name": "Recipe 3", "minutes": 15]"#)
            let converted = [String: Any](first[0])
            #expect(converted["name"] as? String == "Recipe 1" && converted["minutes"] as? Int64 == 5 && converted["rating"] as? Double == 1)
        }
    }

    @Test func aggregatesKeyPathsGroupingHavingAndDistinct() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 12)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let count = NSExpressionDescription(
                name: "recipes", expression: Predicates.NSExpression(forFunction: "count:", arguments: [Predicates.NSExpression.expressionForEvaluatedObject()]),
                resultType: .integer64AttributeType)
            let longest = NSExpressionDescription(
                name: "longest", expression: Predicates.NSExpression(forFunction: "max:", arguments: [Predicates.NSExpression(forKeyPath: "minutes")]))
            let average = NSExpressionDescription(
                name: "average", expression: Predicates.NSExpression(forFunction: "average:", arguments: [Predicates.NSExpression(forKeyPath: "rating")]),
                resultType: .doubleAttributeType)
            func grouped(_ request: NSFetchRequest<FetchedDictionary>) {
                request.propertiesToFetch = ["chef.name", count, longest, average]
                request.propertiesToGroupBy = ["chef.name"]
                request.sortDescriptors = [Predicates.NSSortDescriptor(key: "chef.name", ascending: true)]
            }
            let (rows, dictionaries) = try fetchBoth(stack.context, entity: "Recipe", configure: grouped)
            let expected = try sql(url, """
                SELECT c.ZNAME, count(*), max(r.ZMINUTES), avg(r.ZRATING) FROM ZRECIPE r LEFT JOIN ZCHEF c ON c.Z_PK = r.ZCHEF
                GROUP BY c.ZNAME ORDER BY c.ZNAME
                """)
            #expect(rows.count == expected.count && rows.count == 3)
            for ((row, dictionary), values) in zip(zip(rows, dictionaries), expected) {
                #expect(agree(row, dictionary), "\(row) against \(dictionary)")
                #expect(row["chef.name", as: String.self] == values[0].stringValue)
                #expect(row["recipes", as: Int64.self] == values[1].int64Value)
                #expect(row["longest", as: Int64.self] == values[2].int64Value)
                #expect(row["average", as: Double.self] == values[3].doubleValue)
            }

            let (having, havingDictionaries) = try fetchBoth(stack.context, entity: "Recipe") { request in
                grouped(request)
                request.havingPredicate = Predicates.NSPredicate(format: "longest > %d", 50)
                request.fetchLimit = 1
            }
            let expectedHaving = expected.filter { $0[2].int64Value! > 50 }.map(\.[0].stringValue)
            #expect(having.map { $0["chef.name", as: String.self] } == Array(expectedHaving.prefix(1)))
            #expect(zip(having, havingDictionaries).allSatisfy(agree))

            let (distinct, distinctDictionaries) = try fetchBoth(stack.context, entity: "Recipe") { request in
                request.propertiesToFetch = ["servings", "isVegetarian"]
                request.returnsDistinctResults = true
                request.sortDescriptors = [Predicates.NSSortDescriptor(key: "isVegetarian", ascending: true)]
            }
            #expect(distinct.count == 2 && distinct.map { $0["isVegetarian", as: Bool.self] } == [false, true])
            #expect(zip(distinct, distinctDictionaries).allSatisfy(agree))
        }
    }

    @Test func toOneRelationshipsAndRepeatedNames() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 4)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let (rows, dictionaries) = try fetchBoth(stack.context, entity: "Recipe") { request in
                request.propertiesToFetch = ["chef", "name", "name"]
            }
            #expect(rows.count == 4)
            for (row, dictionary) in zip(rows, dictionaries) {
                #expect(agree(row, dictionary), "\(row) against \(dictionary)")
                #expect(row.keys == ["chef", "name"], "a name fetched twice is one key")
                let chef = try #require(row["chef", as: NSManagedObjectID.self])
                #expect(chef.entity.entityName == "Chef")
                #expect(chef == dictionary["chef"] as? NSManagedObjectID)
            }
            #expect(rows.map { $0["chef", as: NSManagedObjectID.self]?.primaryKey } == [1, 2, 1, 2])
        }
    }

    @Test func manyKeysAreFoundByHashing() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 3)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            // Fourteen keys: beyond what a row scans, so each key is looked up in the table's dictionary.
            let names = (0..<14).map { "minutes\($0)" }
            let (rows, dictionaries) = try fetchBoth(stack.context, entity: "Recipe") { request in
                request.propertiesToFetch = names.map {
                    NSExpressionDescription(name: $0, expression: Predicates.NSExpression(forKeyPath: "minutes"))
                }
            }
            #expect(rows.count == 3)
            for (row, dictionary) in zip(rows, dictionaries) {
                #expect(agree(row, dictionary))
                #expect(row.keys == names)
                for name in names { #expect(row[name, as: Int.self] == dictionary[name].flatMap { $0 as? Int64 }.map(Int.init)) }
                #expect(row["minutes14"] == nil)
            }
        }
    }

    @Test func otherResultTypesStillRefuseDictionaries() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 2)
        let stack = try TestStack(storeURL: url, model: model)
        stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.resultType = .dictionaryResultType
            #expect(throws: CoreDataError.self) { try stack.context.fetch(request) }
        }
    }
}

/// Apple's spelling, `NSFetchRequest<NSDictionary>`: Foundation dictionaries holding the same rows.
struct NSDictionaryResultTests {
    @Test func nsDictionaryRowsHoldTheSameValues() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSDictionary>(entityName: "Recipe")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "minutes", "rating"]
            let rows = try stack.context.fetch(request)
            let typed = NSFetchRequest<FetchedDictionary>(entityName: "Recipe")
            typed.resultType = .dictionaryResultType
            typed.propertiesToFetch = request.propertiesToFetch
            let expected = try stack.context.fetch(typed)
            #expect(rows.count == 6 && rows.count == expected.count)
            for (row, values) in zip(rows, expected) {
                #expect(row.count == values.count)
                #expect(row["name"] as? String == values["name", as: String.self])
                #expect(row.object(forKey: "name") as? String == values["name", as: String.self])
                #expect(row["minutes"] as? Int64 == values["minutes", as: Int64.self])
                #expect(row["rating"] as? Double == values["rating", as: Double.self])
            }
            #expect(rows[2]["rating"] == nil && rows[2].count == 2, "a NULL is left out")
        }
    }
}
