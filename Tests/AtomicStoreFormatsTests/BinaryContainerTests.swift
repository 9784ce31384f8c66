import AtomicStoreFormats
import CoreDataModel
import Foundation
import PropertyListCoding
import Testing

/// The binary store's container as the store format reference §14b describes Apple's files, built byte by byte
/// here (no Apple-written binary store may be kept in the repository), and our writer's output checked word by word.
@Suite("Binary store: Apple's container")
struct BinaryContainerTests {
    /// Person (age Integer 16, born Date, name String, score Float; pets to-many) and Pet (name; owner to-one).
    static let model: NSManagedObjectModel = {
        let person = NSEntityDescription(name: "Person")
        person.setProperties([TestModels.attribute("name", .stringAttributeType), TestModels.attribute("age", .integer16AttributeType),
                              TestModels.attribute("score", .floatAttributeType), TestModels.attribute("born", .dateAttributeType),
                              TestModels.relationship("pets", to: "Pet", inverse: "owner", toMany: true)])
        let pet = NSEntityDescription(name: "Pet")
        pet.setProperties([TestModels.attribute("name", .stringAttributeType),
                           TestModels.relationship("owner", to: "Person", inverse: "pets", toMany: false)])
        let model = NSManagedObjectModel(entities: [person, pet])
        try! model.link()
        return model
    }()

    /// A file laid out as §14b says Apple's are: header, map archive at 64, metadata archive running to the end.
    /// `mapKeys` and `nodes` let tests damage the map.
    static func appleLikeFile(mark: UInt64 = 10, damage: (inout KeyedArchiveBuilder, inout [(Int64, [String: PropertyListValue])]) -> Void = { _, _ in }) throws -> Data {
        var map = KeyedArchiveBuilder()
        let root = map.reserveObject()
        let null = map.addNull()
        func strings(_ values: [String]) -> [ArchivedObjectReference] { values.map { map.addString($0) } }
        func node(_ key: Int64, _ entity: String, _ values: [ArchivedObjectReference], related: [String: [Int64]]) throws -> [String: PropertyListValue] {
            var fields: [String: PropertyListValue] = [
                "NSEntityName": map.addString(entity).uid, "NSPrimaryKey64": .integer(key),
                "NSAttributeValues": map.addArray(values).uid,
            ]
            if !related.isEmpty {
                let names = related.keys.sorted()
                let lists = try names.map { name in map.addArray(try related[name]!.map { try map.addPlainValue(.integer($0)) }) }
                fields["NSRelatedNodes"] = try map.addDictionary(keys: strings(names), values: lists, className: "NSMutableDictionary").uid
            }
            return fields
        }
        // Person 1: age 42, born 2001 + 86400.5 s, name "Ann", score 0.8f widened; positions: age, born, name, score.
        var nodes: [(Int64, [String: PropertyListValue])] = [
            (1, try node(1, "Person", [try map.addPlainValue(.integer(42)), map.addDate(Date(timeIntervalSinceReferenceDate: 86400.5)),
                                       map.addString("Ann"), try map.addPlainValue(.real(Double(Float(0.8))))],
                         related: ["pets": [5, 3]])),
            (3, try node(3, "Pet", [map.addString("Rex")], related: ["owner": [1]])),
            (5, try node(5, "Pet", [null], related: ["owner": [1]])),
        ]
        damage(&map, &nodes)
        var keys: [ArchivedObjectReference] = []
        var values: [ArchivedObjectReference] = []
        for (key, fields) in nodes {
            keys.append(try map.addPlainValue(.integer(key)))
            values.append(map.addObject(className: "NSDictionaryMapNode",
                                        classHierarchy: ["NSDictionaryMapNode", "NSStoreMapNode", "NSObject"], fields: fields))
        }
        try map.defineObject(root, className: "NSMutableDictionary", fields: ["NS.keys": .array(keys.map(\.uid)), "NS.objects": .array(values.map(\.uid))])
        map.setTopObject(root, forKey: "mapData")
        let mapBytes = try map.binaryData()
        var metadata = KeyedArchiveBuilder()
        metadata.setTopObject(try metadata.add(.dictionary([
            "NSStoreType": "Binary", "NSStoreUUID": "6C1B5A1E-0000-4000-8000-000000000001", "NSPersistenceFrameworkVersion": .integer(1152),
            "NSStoreModelVersionHashes": .dictionary(model.entityVersionHashesByName.mapValues { .data($0) }),
            "NSStoreModelVersionHashesVersion": .integer(3),
        ])), forKey: "metadata")
        let metadataBytes = try metadata.binaryData()
        var file = Data("CoreData".utf8)
        func word(_ value: UInt64, _ width: Int) {
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { file.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        word(1, 4); word(0x0804_0800, 4)
        word(UInt64(64 + mapBytes.count), 8); word(UInt64(metadataBytes.count), 8)
        word(64, 8); word(UInt64(mapBytes.count), 8)
        word(mark, 8); word(0, 8)
        file.append(mapBytes)
        file.append(metadataBytes)
        return file
    }

    @Test("A file laid out as Apple's reads: entities, values by sorted position, NSNull as nil, related keys, the key mark")
    func readsAppleLayout() throws {
        let contents = try BinaryStoreFormat.decode(try Self.appleLikeFile(), model: Self.model, file: "apple.binary")
        #expect(contents.objects.map(\.reference) == [1, 3, 5])
        #expect(contents.referenceHighWaterMark == 10)  // the header's mark, above the largest key (5)
        #expect(contents.storeUUID == "6C1B5A1E-0000-4000-8000-000000000001")
        #expect(contents.metadata["NSPersistenceFrameworkVersion"] == .integer(1152))
        let ann = contents.objects[0]
        #expect(ann.entity.entityName == "Person")
        #expect(ann.attributes == ["age": .integer(42), "born": .date(Date(timeIntervalSinceReferenceDate: 86400.5)),
                                   "name": .string("Ann"), "score": .float(0.8)])
        #expect(ann.relationships == ["pets": [5, 3]])
        #expect(contents.objects[1].attributes == ["name": .string("Rex")])
        #expect(contents.objects[2].attributes.isEmpty)
        #expect(contents.objects[2].relationships == ["owner": [1]])
    }

    @Test("Our writer lays the file out as §14b: header words, archive ranges, $top keys, node classes and fields")
    func writerLayout() throws {
        let original = try BinaryStoreFormat.decode(try Self.appleLikeFile(), model: Self.model, file: "apple.binary")
        let bytes = [UInt8](try BinaryStoreFormat.encode(original, model: Self.model))
        func word(_ offset: Int, _ width: Int) -> UInt64 { bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) } }
        #expect(Array(bytes[0..<8]) == Array("CoreData".utf8))
        #expect(word(8, 4) == 1)
        #expect(word(12, 4) == 0x0804_0800)
        #expect(word(32, 8) == 64)  // the map first
        #expect(word(16, 8) == 64 + word(40, 8))  // then the metadata, running to the end
        #expect(word(16, 8) + word(24, 8) == UInt64(bytes.count))
        #expect(word(48, 8) == 10)
        #expect(word(56, 8) == 0)
        let map = try KeyedArchive(bytes: Array(bytes[64..<Int(64 + word(40, 8))]))
        #expect(map.topKeys == ["mapData"])
        let nodes = try map.topObject(forKey: "mapData").dictionaryEntries()
        #expect(nodes.map(\.key) == [.integer(1), .integer(3), .integer(5)])
        let node = try map.object(try #require(nodes[2].value.objectReference))
        #expect(node.classHierarchy == ["NSDictionaryMapNode", "NSStoreMapNode", "NSObject"])
        #expect(node.keys == ["NSAttributeValues", "NSEntityName", "NSPrimaryKey64", "NSRelatedNodes"])
        #expect(try node.value(forKey: "NSPrimaryKey64") == .integer(5))
        let values = try #require(try node.object(forKey: "NSAttributeValues")).elements()
        #expect(try values.map { try map.object(try #require($0.objectReference)).className } == ["NSNull"])
        let metadata = try KeyedArchive(bytes: Array(bytes[Int(word(16, 8))...]))
        #expect(metadata.topKeys == ["metadata"])
        #expect(try metadata.plainTopValue(forKey: "metadata")["NSStoreType"] == .string("Binary"))
        #expect(try BinaryStoreFormat.decode(Data(bytes), model: Self.model, file: "ours") == original)
    }

    @Test("Metadata reads without a model")
    func metadataAlone() throws {
        let metadata = try BinaryStoreFormat.metadata(of: try Self.appleLikeFile(), file: "apple.binary")
        #expect(metadata["NSStoreType"] == .string("Binary"))
        #expect(metadata["NSStoreModelVersionHashesVersion"] == .integer(3))
    }
}
