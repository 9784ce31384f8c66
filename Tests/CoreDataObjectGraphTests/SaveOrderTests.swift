import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Saves are reproducible: objects are written in the order they were inserted or first changed, not in a hash
/// table's order (which Swift seeds differently in every process), and unordered many-to-many rows in key order.
struct SaveOrderTests {
    @Test func insertedObjectsGetPrimaryKeysInInsertionOrder() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let names = (0..<200).map { "Tag \($0)" }
        try stack.context.performAndWait {
            for name in names {
                NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context).setValue(name, forKey: "label")
            }
            try stack.context.save()
        }
        let rows = try Connection(path: url.path, mode: .readOnly).query("SELECT ZLABEL FROM ZTAG ORDER BY Z_PK")
        #expect(rows.map { $0[0] } == names.map { .text($0) })
    }

    @Test func insertsAlternatingBetweenEntitiesGetTheEntityTheyName() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let names = ["Tag", "Tag", "Chef", "Tag", "Chef", "Chef", "Recipe", "Tag"]
        let entities = stack.context.performAndWait {
            names.map { NSEntityDescription.insertNewObject(forEntityName: $0, into: stack.context).entity.entityName }
        }
        #expect(entities == names)
    }

    @Test func unorderedManyToManyRowsAreWrittenInKeyOrder() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0]
            let tags = (0..<50).map { index -> NSManagedObject in
                let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
                tag.setValue("tag \(index)", forKey: "label")
                return tag
            }
            try stack.context.save()
            // The recipe changes first, so its side (in the Set's order) writes the rows.
            recipe.setValue(Set(tags), forKey: "tags")
            try stack.context.save()
        }
        let layout = StoreLayout(model: model)
        let join = try #require(layout.joinTable(forRelationship: "tags", ofEntity: "Recipe"))
        let connection = try Connection(path: url.path, mode: .readOnly)
        let keys = try connection.query("SELECT \(join.destinationKeyColumn) FROM \(join.name) ORDER BY rowid").map { $0[0] }
        #expect(keys == (1...50).map { SQLiteValue.integer(Int64($0)) })
    }
}
