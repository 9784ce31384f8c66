import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// A many-to-many relationship whose inverse has the same name (`Author.links` ←→ `Tag.links`): the join table's
/// columns are named after the relationships, so which column holds which side's keys must be decided by the side
/// the relationship is on, not by its name. Saves, faults and prefetches from either side agree with the file.
struct JoinTableSideTests {
    private static func store() throws -> (url: URL, model: NSManagedObjectModel) {
        let author = NSEntityDescription(name: "Author"), tag = NSEntityDescription(name: "Tag")
        let toTags = NSRelationshipDescription(name: "links", destinationEntityName: "Tag")
        toTags.inverseRelationshipName = "links"
        toTags.maxCount = 0
        let toAuthors = NSRelationshipDescription(name: "links", destinationEntityName: "Author")
        toAuthors.inverseRelationshipName = "links"
        toAuthors.maxCount = 0
        author.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), toTags])
        tag.setProperties([NSAttributeDescription(name: "label", type: .stringAttributeType), toAuthors])
        for entity in [author, tag] { for property in entity.ownProperties { property.isOptional = true } }
        let model = NSManagedObjectModel(entities: [author, tag])
        let url = try TemporaryDirectory.make().appendingPathComponent("Links.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        return (url, model)
    }

    @Test func bothSidesOfAJoinTableWhoseRelationshipsShareANameUseTheirOwnColumns() throws {
        let (url, model) = try Self.store()
        let join = try #require(StoreLayout(model: model).joinTables.first)
        #expect(join.entityName == "Author" && join.sourceKeyColumn != join.destinationKeyColumn)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let context = stack.context
            // Different primary keys on the two sides, so a pair written the wrong way round shows.
            let authors = (1...3).map { index -> NSManagedObject in
                let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
                author.setValue("a\(index)", forKey: "name")
                return author
            }
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("t1", forKey: "label")
            tag.mutableSetValue(forKey: "links").add(authors[2])
            try context.save()
            #expect(authors[2].objectID.primaryKey == 3 && tag.objectID.primaryKey == 1)
        }
        let raw = try Connection(path: url.path, mode: .readOnly)
        let rows = try raw.query("SELECT \(join.sourceKeyColumn), \(join.destinationKeyColumn) FROM \(join.name)")
            .map { [$0[0].int64Value!, $0[1].int64Value!] }
        #expect(rows == [[3, 1]], "one row: author 3 with tag 1")

        // Read back from either side: faults, then prefetches.
        let reader = try TestStack(storeURL: url, model: model)
        try reader.context.performAndWait {
            let context = reader.context
            let tags = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag"))
            #expect(tags.count == 1)
            #expect((tags[0].value(forKey: "links") as? Set<NSManagedObject>)?.map { $0.value(forKey: "name") as? String } == ["a3"])
            let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let authors = try context.fetch(request)
            #expect(authors.map { ($0.value(forKey: "links") as? Set<NSManagedObject>)?.count } == [0, 0, 1])
        }
        let prefetcher = try TestStack(storeURL: url, model: model)
        try prefetcher.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
            request.relationshipKeyPathsForPrefetching = ["links"]
            let tags = try prefetcher.context.fetch(request)
            #expect((tags[0].value(forKey: "links") as? Set<NSManagedObject>)?.map(\.objectID.primaryKey) == [3])
        }
    }
}
