import AtomicStoreFormats
import CoreDataModel
import Foundation
import PropertyListCoding

/// Models for the codec tests.
enum TestModels {
    /// Every attribute type a store file holds, inheritance (abstract `Item` above `Note` and `Task`), a to-one, a
    /// to-many and an ordered to-many, with inverses.
    static func everyType() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item")
        item.isAbstract = true
        item.setProperties([attribute("title", .stringAttributeType), attribute("created", .dateAttributeType),
                            relationship("folder", to: "Folder", inverse: "items", toMany: false)])
        let note = NSEntityDescription(name: "Note")
        note.superentityName = "Item"
        note.setProperties([
            attribute("small", .integer16AttributeType), attribute("medium", .integer32AttributeType),
            attribute("large", .integer64AttributeType), attribute("price", .decimalAttributeType),
            attribute("ratio", .doubleAttributeType), attribute("weight", .floatAttributeType),
            attribute("done", .booleanAttributeType), attribute("blob", .binaryDataAttributeType),
            attribute("identifier", .UUIDAttributeType), attribute("link", .URIAttributeType),
            attribute("colour", .transformableAttributeType),
            transient("scratch"),
        ])
        let task = NSEntityDescription(name: "Task")
        task.superentityName = "Item"
        task.setProperties([attribute("priority", .integer16AttributeType),
                            relationship("steps", to: "Task", inverse: "parent", toMany: true, ordered: true),
                            relationship("parent", to: "Task", inverse: "steps", toMany: false)])
        let folder = NSEntityDescription(name: "Folder")
        folder.setProperties([attribute("name", .stringAttributeType),
                              relationship("items", to: "Item", inverse: "folder", toMany: true)])
        let model = NSManagedObjectModel(entities: [item, note, task, folder])
        try! model.link()
        return model
    }

    static func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
        NSAttributeDescription(name: name, type: type)
    }

    static func transient(_ name: String) -> NSAttributeDescription {
        let attribute = NSAttributeDescription(name: name, type: .stringAttributeType)
        attribute.isTransient = true
        return attribute
    }

    static func relationship(_ name: String, to destination: String, inverse: String, toMany: Bool,
                             ordered: Bool = false) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
        relationship.inverseRelationshipName = inverse
        relationship.maxCount = toMany ? 0 : 1
        relationship.isOrdered = ordered
        return relationship
    }

    /// Xcode's private mapping-model schema as the Moody `xcmapping.xml` files show it, with the camel case their
    /// metadata's hash keys give for entities (property names are guessed from the folded ones).
    static func xcodeMappingModel() -> NSManagedObjectModel {
        let mappingModel = NSEntityDescription(name: "XDDevMappingModel")
        mappingModel.setProperties([
            attribute("sourceModelPath", .stringAttributeType), attribute("sourceModelData", .binaryDataAttributeType),
            attribute("destinationModelPath", .stringAttributeType),
            attribute("destinationModelData", .binaryDataAttributeType),
            relationship("entityMappings", to: "XDDevEntityMapping", inverse: "mappingModel", toMany: true, ordered: true),
        ])
        let entityMapping = NSEntityDescription(name: "XDDevEntityMapping")
        entityMapping.setProperties([
            attribute("migrationPolicyClassName", .stringAttributeType), attribute("sourceName", .stringAttributeType),
            attribute("mappingTypeName", .stringAttributeType), attribute("mappingNumber", .integer16AttributeType),
            attribute("destinationName", .stringAttributeType), attribute("autogenerateExpression", .booleanAttributeType),
            attribute("sourceExpressionData", .binaryDataAttributeType),
            relationship("mappingModel", to: "XDDevMappingModel", inverse: "entityMappings", toMany: false),
            relationship("attributeMappings", to: "XDDevAttributeMapping", inverse: "entityMapping", toMany: true, ordered: true),
            relationship("relationshipMappings", to: "XDDevRelationshipMapping", inverse: "entityMapping", toMany: true, ordered: true),
        ])
        let propertyMapping = NSEntityDescription(name: "XDDevPropertyMapping")
        propertyMapping.isAbstract = true
        propertyMapping.setProperties([
            attribute("name", .stringAttributeType), attribute("autogenerateExpression", .booleanAttributeType),
            attribute("valueExpressionData", .binaryDataAttributeType),
            relationship("entityMapping", to: "XDDevEntityMapping", inverse: "propertyMappings", toMany: false),
        ])
        let attributeMapping = NSEntityDescription(name: "XDDevAttributeMapping")
        attributeMapping.superentityName = "XDDevPropertyMapping"
        let relationshipMapping = NSEntityDescription(name: "XDDevRelationshipMapping")
        relationshipMapping.superentityName = "XDDevPropertyMapping"
        relationshipMapping.setProperties([
            attribute("sourceMappingName", .stringAttributeType), attribute("sourceKeyPath", .stringAttributeType),
        ])
        // The inverse of `entityMapping` differs by subentity, so the parent's relationship names none.
        propertyMapping.ownProperties.compactMap { $0 as? NSRelationshipDescription }.forEach { $0.inverseRelationshipName = nil }
        entityMapping.ownProperties.compactMap { $0 as? NSRelationshipDescription }
            .filter { $0.name != "mappingModel" }.forEach { $0.inverseRelationshipName = nil }
        let model = NSManagedObjectModel(entities: [mappingModel, entityMapping, propertyMapping, attributeMapping, relationshipMapping])
        try! model.link()
        return model
    }
}
