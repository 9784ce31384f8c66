import AtomicStoreFormats
import CoreDataModel
import Foundation
import PropertyListCoding

extension FuzzBodies {
    /// An XML store read with a model inferred from it; what reads must write, and writing what was read back in
    /// must give the same bytes again (names whose case folding collides are left out of that check: the format
    /// folds them to one spelling).
    static func xmlStore(_ input: [UInt8]) -> FuzzOutcome {
        expecting(StoreFileError.self) {
            let data = Data(input)
            _ = try? XMLStoreFormat.metadata(of: data, file: "fuzz.xml")
            let model = try XMLStoreFormat.inferModel(from: data, file: "fuzz.xml")
            let contents = try XMLStoreFormat.decode(data, model: model, file: "fuzz.xml")
            guard !hasFoldingCollision(model) else { return }
            try checkRewrite(contents, encode: { try XMLStoreFormat.encode($0, model: model) },
                             decode: { try XMLStoreFormat.decode($0, model: model, file: "fuzz-rewritten.xml") })
        }
    }

    /// A binary store read with `fuzzModel`; the same rewrite check.
    static func binaryStore(_ input: [UInt8]) -> FuzzOutcome {
        expecting(StoreFileError.self) {
            let data = Data(input)
            _ = try? BinaryStoreFormat.metadata(of: data, file: "fuzz.binary")
            let contents = try BinaryStoreFormat.decode(data, model: fuzzModel, file: "fuzz.binary")
            try checkRewrite(contents, encode: { try BinaryStoreFormat.encode($0, model: fuzzModel) },
                             decode: { try BinaryStoreFormat.decode($0, model: fuzzModel, file: "fuzz-rewritten.binary") })
        }
    }

    /// `encode(decode(encode(x))) == encode(x)`. Writing may refuse what cannot be written (a typed error, such as
    /// a decimal with no archived form); what it writes must read back.
    private static func checkRewrite(_ contents: StoreFileContents, encode: (StoreFileContents) throws -> Data,
                                     decode: (Data) throws -> StoreFileContents) throws {
        let written: Data
        do {
            written = try encode(contents)
        } catch is StoreFileError {
            return
        }
        let again: StoreFileContents
        do {
            again = try decode(written)
        } catch {
            throw FuzzViolation("what the writer wrote does not read back: \(error)")
        }
        guard try encode(again) == written else {
            throw FuzzViolation("reading back what the writer wrote and writing it again gives other bytes")
        }
    }

    private static func hasFoldingCollision(_ model: NSManagedObjectModel) -> Bool {
        func fold(_ name: String) -> String { name.uppercased().lowercased() }
        var entities = Set<String>()
        for entity in model.entities {
            guard entities.insert(fold(entity.entityName)).inserted else { return true }
            var properties = Set<String>()
            for property in entity.allProperties where !properties.insert(fold(property.name)).inserted { return true }
        }
        return false
    }

    /// Every attribute type a store file holds, inheritance, a to-one, a to-many and an ordered to-many.
    static let fuzzModel: NSManagedObjectModel = {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            NSAttributeDescription(name: name, type: type)
        }
        func relationship(_ name: String, _ destination: String, _ inverse: String, toMany: Bool) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
            relationship.inverseRelationshipName = inverse
            relationship.maxCount = toMany ? 0 : 1
            relationship.isOrdered = toMany
            return relationship
        }
        let person = NSEntityDescription(name: "Person")
        person.setProperties([
            attribute("age", .integer16AttributeType), attribute("count", .integer32AttributeType),
            attribute("big", .integer64AttributeType), attribute("price", .decimalAttributeType),
            attribute("ratio", .doubleAttributeType), attribute("score", .floatAttributeType),
            attribute("name", .stringAttributeType), attribute("active", .booleanAttributeType),
            attribute("born", .dateAttributeType), attribute("photo", .binaryDataAttributeType),
            attribute("id", .UUIDAttributeType), attribute("home", .URIAttributeType),
            attribute("colour", .transformableAttributeType),
            relationship("pets", "Pet", "owner", toMany: true),
        ])
        let employee = NSEntityDescription(name: "Employee")
        employee.superentityName = "Person"
        employee.setProperties([attribute("title", .stringAttributeType)])
        let pet = NSEntityDescription(name: "Pet")
        pet.setProperties([attribute("name", .stringAttributeType), relationship("owner", "Person", "pets", toMany: false)])
        let model = NSManagedObjectModel(entities: [person, employee, pet])
        try? model.link()
        return model
    }()

    /// Small valid files of both formats over `fuzzModel`, as seeds.
    static func atomicStoreSeed(xml: Bool) -> [UInt8] {
        let person = fuzzModel.entitiesByName["Person"]!, employee = fuzzModel.entitiesByName["Employee"]!
        let pet = fuzzModel.entitiesByName["Pet"]!
        let contents = StoreFileContents(
            metadata: ["NSStoreUUID": "6C1B5A1E-0000-4000-8000-000000000001", "NSStoreModelVersionHashesVersion": .integer(3),
                       "NSStoreModelVersionHashes": .dictionary(fuzzModel.entityVersionHashesByName.mapValues { .data($0) })],
            referenceHighWaterMark: 9,
            objects: [
                StoreFileObject(entity: person, reference: 1, attributes: [
                    "age": .integer(42), "count": .integer(-7), "big": .integer(1 << 40), "price": .decimal(Decimal(string: "12.50")!),
                    "ratio": .double(0.25), "score": .float(0.8), "name": .string("Ann <&>"), "active": .boolean(true),
                    "born": .date(Date(timeIntervalSinceReferenceDate: 445_103_622.25)), "photo": .data(Data([0, 1, 2, 255])),
                    "id": .uuid(UUID(uuidString: "0E82928F-05F0-40AF-851B-1FA617A37DB3")!),
                    "home": .uri(URL(string: "https://example.com/a?b=c")!), "colour": .data(Data("bplist00".utf8)),
                ], relationships: ["pets": [3, 4]]),
                StoreFileObject(entity: employee, reference: 2, attributes: ["title": .string("boss"), "name": .string("")]),
                StoreFileObject(entity: pet, reference: 3, attributes: ["name": .string("Rex")], relationships: ["owner": [1]]),
                StoreFileObject(entity: pet, reference: 4, relationships: ["owner": [1]]),
            ])
        let data = xml ? try? XMLStoreFormat.encode(contents, model: fuzzModel) : try? BinaryStoreFormat.encode(contents, model: fuzzModel)
        return Array(data ?? Data())
    }
}
