import CoreDataModel
import Foundation
import PropertyListCoding

/// Builds the binary store's map archive from checked, key-ordered objects.
struct BinaryStoreMapWriter {
    static let nodeClasses = ["NSDictionaryMapNode", "NSStoreMapNode", "NSObject"]
    let schema: StoreFileSchema
    let file: String

    func archive(_ objects: [StoreFileObject]) throws(StoreFileError) -> Data {
        var builder = KeyedArchiveBuilder()
        let map = builder.reserveObject()
        // One NSNull for every nil, as Apple's files share one.
        let null = builder.addNull()
        var keys: [ArchivedObjectReference] = []
        var nodes: [ArchivedObjectReference] = []
        keys.reserveCapacity(objects.count)
        nodes.reserveCapacity(objects.count)
        for object in objects {
            do {
                keys.append(try builder.addPlainValue(.integer(object.reference)))
                nodes.append(try node(for: object, in: &builder, null: null))
            } catch let error as StoreFileError {
                throw error
            } catch {
                throw StoreFileError(file: file, location: .object(object.reference), reason: "\(error)")
            }
        }
        do {
            try builder.defineObject(map, className: "NSMutableDictionary", fields: [
                "NS.keys": .array(keys.map(\.uid)), "NS.objects": .array(nodes.map(\.uid)),
            ])
            builder.setTopObject(map, forKey: "mapData")
            return try builder.binaryData()
        } catch {
            throw StoreFileError(file: file, location: .file, reason: "the map cannot be archived: \(error)")
        }
    }

    private func node(for object: StoreFileObject, in builder: inout KeyedArchiveBuilder,
                      null: ArchivedObjectReference) throws -> ArchivedObjectReference {
        let plan = schema.plan(for: object.entity)
        let node = builder.reserveObject()
        let name = builder.addString(object.entity.entityName)
        var values: [ArchivedObjectReference] = []
        values.reserveCapacity(plan.attributes.count)
        for attribute in plan.attributes {
            values.append(try BinaryStoreValues.add(object.attributes[attribute.name], for: attribute, to: &builder, null: null))
        }
        var fields: [String: PropertyListValue] = [
            "NSEntityName": name.uid, "NSPrimaryKey64": .integer(object.reference),
            "NSAttributeValues": builder.addArray(values).uid,
        ]
        let related = object.relationships.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        if !related.isEmpty {
            var names: [ArchivedObjectReference] = []
            var lists: [ArchivedObjectReference] = []
            for (relationship, destinations) in related {
                names.append(builder.addString(relationship))
                lists.append(builder.addArray(try destinations.map { try builder.addPlainValue(.integer($0)) }))
            }
            fields["NSRelatedNodes"] = try builder.addDictionary(keys: names, values: lists, className: "NSMutableDictionary").uid
        }
        try builder.defineObject(node, className: "NSDictionaryMapNode", classHierarchy: Self.nodeClasses, fields: fields)
        return node
    }
}
