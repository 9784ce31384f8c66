import CoreDataModel
import StoreAccess
import Testing

/// The one rule that names an object where a relationship points at it (`EntityLabel`).
@Suite("Entity labels (the commands)")
struct EntityLabelTests {
    static func entity(_ name: String, _ attributes: [(String, NSAttributeType)], unique: [[String]] = []) -> NSEntityDescription {
        let entity = NSEntityDescription(name: name)
        entity.setProperties(attributes.map { NSAttributeDescription(name: $0.0, type: $0.1) })
        entity.uniquenessConstraints = unique
        _ = NSManagedObjectModel(entities: [entity])
        return entity
    }

    @Test("name, then title, then displayName, whatever their order in the entity")
    func preferredNames() {
        #expect(EntityLabel.attributeName(for: Self.entity("A", [("summary", .stringAttributeType), ("title", .stringAttributeType),
                                                                 ("name", .stringAttributeType)])) == "name")
        #expect(EntityLabel.attributeName(for: Self.entity("B", [("displayName", .stringAttributeType), ("title", .stringAttributeType)])) == "title")
        #expect(EntityLabel.attributeName(for: Self.entity("C", [("code", .stringAttributeType), ("displayName", .stringAttributeType)])) == "displayName")
    }

    @Test("a name that is not a string does not count")
    func nonStringName() {
        #expect(EntityLabel.attributeName(for: Self.entity("D", [("name", .integer64AttributeType), ("code", .stringAttributeType)])) == "code")
    }

    @Test("then a string attribute unique on its own, then the first string attribute, then none")
    func fallbacks() {
        let unique = Self.entity("E", [("notes", .stringAttributeType), ("slug", .stringAttributeType), ("rank", .integer16AttributeType)],
                                 unique: [["notes", "rank"], ["slug"]])
        #expect(EntityLabel.attributeName(for: unique) == "slug")
        #expect(EntityLabel.attributeName(for: Self.entity("F", [("rank", .integer16AttributeType), ("notes", .stringAttributeType)])) == "notes")
        #expect(EntityLabel.attributeName(for: Self.entity("G", [("rank", .integer16AttributeType)])) == nil)
    }

    @Test("an empty or missing value falls back to Entity pN")
    func fallbackLabel() {
        let label = EntityLabel(entity: Self.entity("Chef", [("name", .stringAttributeType)]))
        #expect(label.label(value: "Ana", primaryKey: 3) == "Ana")
        #expect(label.label(value: "", primaryKey: 3) == "Chef p3")
        #expect(label.label(value: nil, primaryKey: 7, entityName: "HeadChef") == "HeadChef p7")
    }
}
