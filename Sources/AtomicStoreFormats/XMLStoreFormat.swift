import CoreDataModel
import Foundation
import PropertyListCoding

/// Core Data's XML store file (`NSXMLStoreType`) in Apple's format: a `<database>` with a `<databaseInfo>` header
/// (version, UUID, the last object number handed out, the metadata plist) and one `<object>` per object, whose
/// entity and property names are written case-folded (`XDDEVENTITYMAPPING`, `sourcename`) and resolved against the
/// model without regard to case (store format reference §14a, §14b).
public enum XMLStoreFormat {
    /// The number Apple writes in `<version>` (also the binary store's format word).
    public static let version: Int64 = 134_481_920
    /// `NSStoreType` of XML stores.
    public static let storeType = "XML"

    /// Reads the file's bytes against `model`. `file` names the file in errors.
    public static func decode(_ data: Data, model: NSManagedObjectModel, file: String) throws(StoreFileError) -> StoreFileContents {
        let document = try XMLStoreEventReader.read(data, file: file)
        return try XMLStoreDecoder(schema: StoreFileSchema(model: model), file: file).contents(of: document)
    }

    /// The metadata alone (`NSStoreType`, `NSStoreUUID` and the plist), read without a model and without reading
    /// the objects.
    public static func metadata(of data: Data, file: String) throws(StoreFileError) -> [String: PropertyListValue] {
        let document = try XMLStoreEventReader.read(data, file: file, headerOnly: true)
        return try XMLStoreDecoder.metadata(of: document, file: file)
    }

    /// A model inferred from the file alone: one entity per `type` named (spelled as the metadata's version hashes
    /// spell it where one matches, else as written, in upper case), its attributes and relationships as written (lower
    /// case) with the types the file gives, every property optional, no inverses. Enough to read any XML store, such as an Xcode mapping model
    /// (`.xcmappingmodel/xcmapping.xml`), without the model that wrote it.
    public static func inferModel(from data: Data, file: String) throws(StoreFileError) -> NSManagedObjectModel {
        try XMLStoreModelInference(file: file).model(for: XMLStoreEventReader.read(data, file: file))
    }

    /// Writes `contents` as Apple does, objects in reference order. Throws when the contents do not fit `model`
    /// (the same checks as reading) or hold text XML 1.0 cannot carry; nothing is returned half-written.
    public static func encode(_ contents: StoreFileContents, model: NSManagedObjectModel) throws(StoreFileError) -> Data {
        try XMLStoreWriter(schema: StoreFileSchema(model: model)).write(contents)
    }
}

/// Applies a model to an `XMLStoreDocument`.
struct XMLStoreDecoder {
    let schema: StoreFileSchema
    let file: String

    func contents(of document: XMLStoreDocument) throws(StoreFileError) -> StoreFileContents {
        var objects: [StoreFileObject] = []
        objects.reserveCapacity(document.objects.count)
        for raw in document.objects { objects.append(try object(from: raw)) }
        // Sorted by reference, with the file's positions carried along for messages.
        let order = objects.indices.sorted { objects[$0].reference < objects[$1].reference }
        let sorted = order.map { objects[$0] }
        let check = StoreFileGraphCheck(schema: schema, file: file, spell: { "z\($0)" }, locate: { index, relationship in
            let raw = document.objects[order[index]]
            let position = relationship.flatMap { name in
                raw.relationships.first { schema.plan(for: sorted[index].entity).relationship(folded: $0.name)?.name == name }?.position
            } ?? raw.position
            return .line(position.line, column: position.column)
        })
        try check.check(sorted)
        var mark: Int64 = 0
        if let next = document.nextObjectID {
            guard let number = Int64(next.text), number >= 0 else {
                throw StoreFileError(file: file, location: .line(next.position.line, column: next.position.column),
                                     reason: "<nextObjectID> \(next.text.prefix(40).debugDescription) is not a number")
            }
            mark = number
        }
        // A mark below an object's number would hand that number out again: the file's objects win.
        mark = max(mark, sorted.last?.reference ?? 0)
        return StoreFileContents(metadata: try Self.metadata(of: document, file: file), referenceHighWaterMark: mark,
                                 objects: sorted)
    }

    static func metadata(of document: XMLStoreDocument, file: String) throws(StoreFileError) -> [String: PropertyListValue] {
        var metadata: [String: PropertyListValue] = [:]
        if document.metadataXML.contains(where: { !$0.isWhitespace }) {
            let value: PropertyListValue
            do {
                value = try XMLPropertyListReader().read(Data(document.metadataXML.utf8))
            } catch {
                let line = document.metadataPosition.line + ((error as? PropertyListError)?.line ?? 1) - 1
                let reason = (error as? PropertyListError)?.reason ?? "\(error)"
                throw StoreFileError(file: file, location: .line(line, column: 1), reason: "<metadata>: \(reason)")
            }
            guard case .dictionary(let entries) = value else {
                throw StoreFileError(file: file, location: .line(document.metadataPosition.line, column: document.metadataPosition.column),
                                     reason: "<metadata> holds a \(value.typeName), not a dictionary")
            }
            metadata = entries
        }
        if let uuid = document.uuid { metadata[StoreMetadataKey.storeUUID] = .string(uuid) }
        metadata[StoreMetadataKey.storeType] = .string(XMLStoreFormat.storeType)
        return metadata
    }

    private func object(from raw: XMLStoreDocument.Object) throws(StoreFileError) -> StoreFileObject {
        func failure(_ position: XMLStoreDocument.Position, _ reason: String) -> StoreFileError {
            StoreFileError(file: file, location: .line(position.line, column: position.column), reason: reason)
        }
        guard let reference = Self.reference(raw.id) else {
            throw failure(raw.position, "object id \(raw.id.prefix(40).debugDescription) is not z followed by a number")
        }
        guard let entity = schema.entity(named: raw.type) else {
            let why = schema.isAmbiguousEntity(raw.type) ? "matches several entities of the model when case is ignored"
                : "is not an entity of the model"
            throw failure(raw.position, "object \(raw.id) has type \(raw.type.prefix(80).debugDescription), which \(why)")
        }
        let plan = schema.plan(for: entity)
        var object = StoreFileObject(entity: entity, reference: reference)
        for attribute in raw.attributes {
            guard let description = plan.attribute(folded: attribute.name) else {
                throw failure(attribute.position, "object \(raw.id) (\(entity.entityName)) has attribute "
                              + "\(attribute.name.prefix(80).debugDescription), \(unknown(attribute.name, plan))")
            }
            guard XMLStoreValueText.typeName(attribute.type, fits: description.attributeType) else {
                throw failure(attribute.position, "object \(raw.id) (\(entity.entityName)): attribute \(description.name) is "
                              + "\(description.attributeType.xcodeName) in the model, but the file gives type "
                              + "\(attribute.type.prefix(40).debugDescription)")
            }
            guard object.attributes[description.name] == nil else {
                throw failure(attribute.position, "object \(raw.id) (\(entity.entityName)) has attribute \(description.name) twice")
            }
            do {
                object.attributes[description.name] = try XMLStoreValueText.value(from: attribute.text, for: description)
            } catch {
                throw failure(attribute.position, "object \(raw.id) (\(entity.entityName)): \(error.reason)")
            }
        }
        for relationship in raw.relationships {
            guard let description = plan.relationship(folded: relationship.name) else {
                throw failure(relationship.position, "object \(raw.id) (\(entity.entityName)) has relationship "
                              + "\(relationship.name.prefix(80).debugDescription), \(unknown(relationship.name, plan))")
            }
            guard object.relationships[description.name] == nil else {
                throw failure(relationship.position, "object \(raw.id) (\(entity.entityName)) has relationship \(description.name) twice")
            }
            guard !relationship.idrefs.isEmpty else { continue }
            var destinations: [Int64] = []
            destinations.reserveCapacity(relationship.idrefs.count)
            for idref in relationship.idrefs {
                guard let destination = Self.reference(idref) else {
                    throw failure(relationship.position, "object \(raw.id) (\(entity.entityName)): relationship \(description.name) "
                                  + "refers to \(idref.prefix(40).debugDescription), which is not z followed by a number")
                }
                destinations.append(destination)
            }
            object.relationships[description.name] = destinations
        }
        return object
    }

    private func unknown(_ name: String, _ plan: StoreFileSchema.EntityPlan) -> String {
        plan.isAmbiguous(name) ? "which matches several properties when case is ignored"
            : "which is not a stored property of the entity"
    }

    /// `z102` → 102.
    static func reference(_ id: some StringProtocol) -> Int64? {
        guard id.first == "z" || id.first == "Z" else { return nil }
        let digits = id.dropFirst()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(digits)
    }
}
