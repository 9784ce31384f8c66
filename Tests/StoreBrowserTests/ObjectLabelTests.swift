import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import StoreAccess
import Testing

/// Issue 21, item 5: the one rule that names objects for people, shared by the browser and the commands.
@Suite("ObjectLabel")
struct ObjectLabelTests {
    private static func entity(_ name: String, _ attributes: [(String, NSAttributeType)], unique: [[String]] = []) -> NSEntityDescription {
        let entity = NSEntityDescription(name: name)
        entity.setProperties(attributes.map { NSAttributeDescription(name: $0.0, type: $0.1) })
        entity.uniquenessConstraints = unique
        return entity
    }

    @Test("The display key: name, title, displayName, then a unique string, then the first string, else none")
    func defaultRule() {
        let order: [(String, NSAttributeType)] = [("code", .stringAttributeType), ("displayName", .stringAttributeType),
                                                  ("title", .stringAttributeType), ("name", .stringAttributeType)]
        #expect(ObjectLabel.defaultKey(for: Self.entity("A", order)) == "name")
        #expect(ObjectLabel.defaultKey(for: Self.entity("B", Array(order.dropLast()))) == "title")
        #expect(ObjectLabel.defaultKey(for: Self.entity("C", Array(order.prefix(2)))) == "displayName")
        let unique = Self.entity("D", [("notes", .stringAttributeType), ("count", .integer64AttributeType),
                                       ("email", .stringAttributeType)], unique: [["email"], ["notes", "count"]])
        #expect(ObjectLabel.defaultKey(for: unique) == "email")
        let plain = Self.entity("E", [("count", .integer64AttributeType), ("notes", .stringAttributeType), ("more", .stringAttributeType)])
        #expect(ObjectLabel.defaultKey(for: plain) == "notes")
        #expect(ObjectLabel.defaultKey(for: Self.entity("F", [("count", .integer64AttributeType)])) == nil)
    }

    @Test("An override names the key for the entity and its subentities; a key that is no attribute is refused")
    func overrides() throws {
        let parent = Self.entity("Item", [("title", .stringAttributeType), ("code", .stringAttributeType)])
        let child = Self.entity("Book", [("isbn", .stringAttributeType)])
        child.superentityName = "Item"
        let model = NSManagedObjectModel(entities: [parent, child])
        #expect(child.superentity === parent, "the model links Book under Item")
        _ = model
        var labels = ObjectLabel()
        #expect(labels.key(for: child) == "title")
        labels.overrides["Item"] = "code"
        #expect(labels.key(for: parent) == "code" && labels.key(for: child) == "code")
        labels.overrides["Book"] = "isbn"
        #expect(labels.key(for: child) == "isbn" && labels.key(for: parent) == "code")
        #expect(throws: StoreAccessError.self) { try ObjectLabel.validate("nope", for: parent) }
        try ObjectLabel.validate("code", for: child)
    }

    @Test("Labels of many objects come from the store, by display key; an empty value falls back to the ID")
    func labelsFromTheStore() throws {
        let directory = try TemporaryDirectory.make(prefix: "labels")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Recipes.sqlite").path
        try FileManager.default.copyItem(atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path,
                                         toPath: path)
        try StoreFile.write(path, "UPDATE ZCHEF SET ZNAME = '' WHERE Z_PK = 2")
        let session = try StoreSession(storePath: path, modelPath: nil)
        let context = session.context
        let request = NSFetchRequest<NSManagedObjectID>(entityName: "Chef")
        request.resultType = .managedObjectIDResultType
        let ids = try context.performAndWait { try context.fetch(request) }
        let labels = try context.performAndWait { try ObjectLabel().labels(for: ids, in: context) }
        let names = try StoreFile.rows(path, "SELECT Z_PK, ZNAME FROM ZCHEF")
        #expect(labels.count == names.count)
        for row in names {
            let id = try #require(ids.first { $0.primaryKey == row[0].int64Value })
            let name = row[1].stringValue ?? ""
            #expect(labels[id] == (name.isEmpty ? "Chef p\(row[0].int64Value ?? 0)" : name))
        }
        #expect(labels.values.contains("Chef p2"))
    }
}
