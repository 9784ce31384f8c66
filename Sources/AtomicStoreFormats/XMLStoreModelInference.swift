import CoreDataModel
import Foundation
import PropertyListCoding

/// Builds a model from an XML store file alone: the entities its objects and relationships name, with the
/// attributes and relationships its objects carry. The file folds the case of names; an entity's own spelling is
/// taken back from the metadata's version hashes, which Apple keys by the real entity name (`XDDEVENTITYMAPPING` is
/// `XDDevEntityMapping` there), when exactly one key matches it. Property names stay as written (lower case): nothing
/// in the file records them. Types come from the `type` of attributes and the `min/max` of relationships (0 meaning
/// unbounded).
struct XMLStoreModelInference {
    let file: String

    func model(for document: XMLStoreDocument) throws(StoreFileError) -> NSManagedObjectModel {
        var entityOrder: [String] = []
        var attributes: [String: [(name: String, type: NSAttributeType)]] = [:]
        var relationships: [String: [(name: String, destination: String, min: Int, max: Int)]] = [:]
        func noteEntity(_ name: String) {
            if attributes[name] == nil {
                entityOrder.append(name)
                attributes[name] = []
                relationships[name] = []
            }
        }
        func failure(_ position: XMLStoreDocument.Position, _ reason: String) -> StoreFileError {
            StoreFileError(file: file, location: .line(position.line, column: position.column), reason: reason)
        }
        for object in document.objects {
            guard !object.type.isEmpty else { throw failure(object.position, "object \(object.id) has an empty type") }
            noteEntity(object.type)
            for attribute in object.attributes {
                guard let type = XMLStoreValueText.attributeType(forTypeName: attribute.type) else {
                    throw failure(attribute.position, "attribute \(attribute.name.prefix(80).debugDescription) has type "
                                  + "\(attribute.type.prefix(40).debugDescription), which is not an attribute type of the XML store")
                }
                if let known = attributes[object.type]!.first(where: { $0.name == attribute.name }) {
                    guard known.type == type || (known.type.isInteger && type.isInteger) else {
                        throw failure(attribute.position, "attribute \(attribute.name) of \(object.type) is written both as "
                                      + "\(XMLStoreValueText.typeName(for: known.type) ?? "") and as \(attribute.type)")
                    }
                    // Integer sizes widen to the largest one written.
                    if type.rawValue > known.type.rawValue, let index = attributes[object.type]!.firstIndex(where: { $0.name == attribute.name }) {
                        attributes[object.type]![index].type = type
                    }
                } else {
                    attributes[object.type]!.append((attribute.name, type))
                }
            }
            for relationship in object.relationships {
                guard let destination = relationship.destination, !destination.isEmpty else {
                    throw failure(relationship.position, "relationship \(relationship.name.prefix(80).debugDescription) has no destination")
                }
                let counts = (relationship.type ?? "0/0").split(separator: "/")
                guard counts.count == 2, let min = Int(counts[0]), let max = Int(counts[1]), min >= 0, max >= 0 else {
                    throw failure(relationship.position, "relationship \(relationship.name.prefix(80).debugDescription) has "
                                  + "type \((relationship.type ?? "").prefix(40).debugDescription), not min/max")
                }
                if let known = relationships[object.type]!.first(where: { $0.name == relationship.name }) {
                    guard known.destination == destination, known.max == max else {
                        throw failure(relationship.position, "relationship \(relationship.name) of \(object.type) is written "
                                      + "with two destinations or counts")
                    }
                } else {
                    relationships[object.type]!.append((relationship.name, destination, min, max))
                }
            }
        }
        for object in document.objects {
            for relationship in object.relationships { noteEntity(relationship.destination ?? "") }
        }
        let parents = try inferParents(document)
        let spelled = try realNames(of: entityOrder, in: document)
        func real(_ name: String) -> String { spelled[name] ?? name }
        let entities = entityOrder.map { name -> NSEntityDescription in
            let entity = NSEntityDescription(name: real(name))
            entity.superentityName = parents[name].map(real)
            for attribute in attributes[name]! {
                entity.addProperty(NSAttributeDescription(name: attribute.name, type: attribute.type))
            }
            for relationship in relationships[name]! {
                let description = NSRelationshipDescription(name: relationship.name, destinationEntityName: real(relationship.destination))
                description.minCount = relationship.min
                description.maxCount = relationship.max
                entity.addProperty(description)
            }
            return entity
        }
        for entity in entities {
            var names = Set<String>()
            if let duplicate = entity.ownProperties.map(\.name).first(where: { !names.insert($0).inserted }) {
                throw StoreFileError(file: file, location: .file,
                                     reason: "\(entity.entityName) has an attribute and a relationship both named \(duplicate)")
            }
        }
        let model = NSManagedObjectModel(entities: entities)
        // An entity that only relationships name, with subentities, stands for them all.
        let types = Set(document.objects.map { real($0.type) })
        for entity in entities where !types.contains(entity.entityName) && !entity.subentities.isEmpty {
            entity.isAbstract = true
        }
        model.sourceDescription = file
        do {
            try model.link()
        } catch {
            throw StoreFileError(file: file, location: .file, reason: "the inferred model does not link: \(error)")
        }
        return model
    }

    /// The entity names of the metadata's version hashes for the names the file writes, where exactly one hash key
    /// folds to the written name (and no two written names would take the same one).
    private func realNames(of written: [String], in document: XMLStoreDocument) throws(StoreFileError) -> [String: String] {
        let metadata = try XMLStoreDecoder.metadata(of: document, file: file)
        guard case .dictionary(let hashes)? = metadata[StoreMetadataKey.modelVersionHashes] else { return [:] }
        let keysByFold = Dictionary(grouping: hashes.keys, by: StoreFileSchema.fold)
        var names: [String: String] = [:]
        for name in written {
            if let keys = keysByFold[StoreFileSchema.fold(name)], keys.count == 1 { names[name] = keys[0] }
        }
        let taken = Dictionary(grouping: names.keys, by: { names[$0]! })
        for (_, clashing) in taken where clashing.count > 1 {
            for name in clashing { names[name] = nil }
        }
        return names
    }

    /// Inheritance, as far as the file shows it: objects of entity E in a relationship whose destination is D ≠ E
    /// make E a subentity of D (Core Data writes the model's destination, and objects keep their own entity). A file
    /// that makes one entity the subentity of two others, or loops, cannot be told apart and is refused.
    private func inferParents(_ document: XMLStoreDocument) throws(StoreFileError) -> [String: String] {
        var typeByID: [Substring: String] = [:]
        for object in document.objects { typeByID[Substring(object.id)] = object.type }
        var parents: [String: String] = [:]
        for object in document.objects {
            for relationship in object.relationships {
                guard let destination = relationship.destination else { continue }
                for idref in relationship.idrefs {
                    guard let type = typeByID[idref], type != destination else { continue }
                    if let known = parents[type], known != destination {
                        throw StoreFileError(file: file, location: .line(relationship.position.line, column: relationship.position.column),
                                             reason: "objects of \(type) are destinations of relationships to both \(known) and "
                                             + "\(destination); the file alone does not say how these entities are related")
                    }
                    parents[type] = destination
                }
            }
        }
        for start in parents.keys {
            var seen: Set<String> = [start]
            var current = start
            while let parent = parents[current] {
                guard seen.insert(parent).inserted else {
                    throw StoreFileError(file: file, location: .file,
                                         reason: "the relationships make \(start) a subentity of itself; the file cannot be read without its model")
                }
                current = parent
            }
        }
        return parents
    }
}
