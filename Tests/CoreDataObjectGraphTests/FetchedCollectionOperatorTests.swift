import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import KeyValueCoding
import Predicates
import SQLiteDatabase
import Testing

/// Dictionary fetches of key paths ending in a to-many relationship's collection operator (`ingredients.@count`,
/// `recipes.@avg.minutes`): the SQLite store computes them in correlated subqueries and returns what key-value
/// coding gives on the objects, typed as the object path types them.
struct FetchedCollectionOperatorTests {
    @Test func collectionOperatorsMatchKeyValueCoding() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 4, recipes: 13)
        // Chef 5 has no recipes: @count and @sum give 0, the others nil.
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute(sql: "INSERT INTO ZCHEF (Z_PK, Z_ENT, Z_OPT, ZNAME, ZRECIPECOUNT) SELECT 5, Z_ENT, 1, 'Chef 5', 0 FROM ZCHEF LIMIT 1")
        try connection.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_NAME = 'Chef'")
        let stack = try TestStack(storeURL: url, model: model)
        let keys = ["recipes.@count", "recipes.@sum.minutes", "recipes.@avg.minutes", "recipes.@min.minutes",
                    "recipes.@max.created", "recipes.@min.isVegetarian", "recipes.@sum.isVegetarian", "recipes.@max.rating"]
        try stack.context.performAndWait {
            let request = NSFetchRequest<FetchedDictionary>(entityName: "Chef")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name"] + keys
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let rows = try stack.context.fetch(request)
            let objects = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
                .sorted { ($0.propertyValue(forKey: "name") as? String ?? "") < ($1.propertyValue(forKey: "name") as? String ?? "") }
            #expect(rows.count == 5 && objects.count == 5)
            for (row, object) in zip(rows, objects) {
                for key in keys {
                    let expected = UnbridgedValue.of(KeyValueLookup.value(of: object, forKeyPath: key))
                    let value = row[key]
                    #expect(String(describing: value.map(NumericOrSame.init)) == String(describing: expected.map(NumericOrSame.init)),
                            "\(key) of \(row["name"] ?? "?"): \(String(describing: value)) against \(String(describing: expected))")
                }
            }
            let empty = try #require(rows.last)
            #expect(empty["recipes.@count", as: Int64.self] == 0 && empty["recipes.@sum.minutes", as: Int64.self] == 0)
            #expect(empty["recipes.@avg.minutes"] == nil && empty["recipes.@max.created"] == nil)
            #expect(rows.first?["recipes.@min.isVegetarian"] is Bool && rows.first?["recipes.@max.created"] is Date)
        }
    }

    @Test func manyToManyCountsGoThroughTheJoinTable() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let connection = try Connection(path: url.path, mode: .readWrite)
        let layout = StoreLayout(model: model)
        let join = try #require(layout.joinTable(forRelationship: "tags", ofEntity: "Recipe"))
        let recipeColumn = join.entityName == "Recipe" ? join.sourceKeyColumn : join.destinationKeyColumn
        let tagColumn = join.entityName == "Recipe" ? join.destinationKeyColumn : join.sourceKeyColumn
        let tagNumber = try #require(layout.numbering["Tag"])
        for tag in 1...3 {
            try connection.execute(sql: "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (?, ?, 1, ?)",
                                   arguments: [.integer(Int64(tag)), .integer(Int64(tagNumber)), .text("tag \(tag)")])
        }
        try connection.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Tag'")
        // Recipe r carries tags 1...(r % 4).
        for recipe in 1...6 where recipe % 4 > 0 {
            for tag in 1...(recipe % 4) {
                try connection.execute(sql: "INSERT INTO \(join.name) (\(recipeColumn), \(tagColumn)) VALUES (?, ?)",
                                       arguments: [.integer(Int64(recipe)), .integer(Int64(tag))])
            }
        }
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<FetchedDictionary>(entityName: "Recipe")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "tags.@count"]
            let rows = try stack.context.fetch(request)
            #expect(rows.map { $0["tags.@count", as: Int64.self] } == [1, 2, 3, 0, 1, 2])
            let tags = NSFetchRequest<FetchedDictionary>(entityName: "Tag")
            tags.resultType = .dictionaryResultType
            tags.propertiesToFetch = ["label", "recipes.@count", "recipes.@max.minutes"]
            let tagRows = try stack.context.fetch(tags)
            #expect(tagRows.map { $0["recipes.@count", as: Int64.self] } == [5, 3, 1])
            let objects = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag"))
            for (row, object) in zip(tagRows, objects) {
                let expected = UnbridgedValue.of(KeyValueLookup.value(of: object, forKeyPath: "recipes.@max.minutes"))
                #expect(row["recipes.@max.minutes"].map(NumericOrSame.init)?.description == expected.map(NumericOrSame.init)?.description)
            }
        }
    }
}

/// Prints integers of any width alike, so an `Int16` from an object and an `Int64` from a row compare equal while
/// doubles, booleans and dates keep their own form.
private struct NumericOrSame: CustomStringConvertible {
    let description: String
    init(_ value: Any) {
        if let number = NumericValue(value), !NumericValue.isBoolean(value), case .integer(let integer) = number {
            description = "integer \(integer)"
        } else {
            description = "\(type(of: value)) \(value)"
        }
    }
}

/// Apple's spelling of a collection operator in `propertiesToFetch`: an `NSExpressionDescription` whose expression is
/// the key path (`NSExpression(forKeyPath: "recipes.@count")`), which must give what the plain key string gives, on
/// every store type.
struct ExpressionDescriptionCollectionOperatorTests {
    @Test(arguments: StoreTypeParityTests.storeTypes)
    func expressionDescriptionsGiveWhatKeyStringsGive(type: String) throws {
        let stack = try StoreTypeParityTests.RecipesStack(type, chefs: 3, recipes: 10)
        let keys = ["recipes.@count", "recipes.@sum.minutes", "recipes.@avg.minutes", "recipes.@min.minutes", "recipes.@max.minutes"]
        try stack.context.performAndWait {
            func rows(_ properties: [Any]) throws -> [[String: Any]] {
                let request = NSFetchRequest<NSDictionary>(entityName: "Chef")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = ["name"] + properties
                request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
                return try stack.context.fetch(request).map { $0 as! [String: Any] }
            }
            let plain = try rows(keys)
            let described = try rows(keys.map { key in
                let description = NSExpressionDescription()
                description.name = key
                description.expression = Predicates.NSExpression(forKeyPath: key)
                description.expressionResultType = key.hasSuffix("@avg.minutes") ? .doubleAttributeType : .integer64AttributeType
                return description
            })
            #expect(plain.count == 3 && described.count == 3)
            for (left, right) in zip(plain, described) {
                for key in keys {
                    #expect(String(describing: left[key].map(NumericOrSame.init)) == String(describing: right[key].map(NumericOrSame.init)),
                            "\(type) \(key) of \(left["name"] ?? "?")")
                }
                #expect((right["recipes.@count"] as? NSNumber)?.intValue ?? -1 > 0, "every chef of the sample has recipes")
            }
        }
    }

    @Test func aRowAggregateStaysARowAggregate() throws {
        let stack = try StoreTypeParityTests.RecipesStack(NSSQLiteStoreType, chefs: 2, recipes: 6)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSDictionary>(entityName: "Recipe")
            request.resultType = .dictionaryResultType
            let total = NSExpressionDescription()
            total.name = "total"
            total.expression = Predicates.NSExpression(forFunction: "sum:", arguments: [Predicates.NSExpression(forKeyPath: "minutes")])
            total.expressionResultType = .integer64AttributeType
            request.propertiesToFetch = [total]
            let rows = try stack.context.fetch(request)
            let expected = try stack.sql("SELECT SUM(ZMINUTES) FROM ZRECIPE")
            #expect(rows.count == 1)
            #expect(rows[0]["total"].map { NumericOrSame($0).description } == NumericOrSame(expected[0][0].int64Value ?? -1).description,
                    "sum:(minutes) sums the fetched rows")
        }
    }
}
