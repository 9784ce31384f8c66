import AtomicStoreFormats
import CoreDataModel
import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// The four Apple-written XML stores in the fixtures: Xcode's mapping-model documents (`xcmapping.xml`) of the
/// objc.io Moody sample, read with a model inferred from each file and with the mapping schema defined in
/// `TestModels`.
@Suite("XML store: Apple's Moody mapping models", .enabled(if: Fixtures.isAvailable, Comment(rawValue: Fixtures.absenceMessage)))
struct MoodyMappingModelTests {
    static let files = ["Moody 2-Moody 3", "Moody 3-Moody 4", "Moody 4-Moody 5", "Moody 5-Moody 6"]

    static func data(_ name: String) throws -> Data {
        let folder = try Fixtures.copy("models/objcio-moody-migrations/\(name).xcmappingmodel")
        return try Data(contentsOf: folder.appendingPathComponent("xcmapping.xml"))
    }

    /// `<object type="…" id="z…">` elements, counted in the text itself (independently of the reader).
    static func objectTypes(in data: Data) -> [String: Int] {
        let text = String(decoding: data, as: UTF8.self)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.contains("<object ") {
            let type = line.split(separator: "\"")[1]
            counts[String(type), default: 0] += 1
        }
        return counts
    }

    @Test("Each file reads with a model inferred from it: entities and object counts match the file", arguments: files)
    func inferred(name: String) throws {
        let data = try Self.data(name)
        let model = try XMLStoreFormat.inferModel(from: data, file: name)
        let contents = try XMLStoreFormat.decode(data, model: model, file: name)
        let expected = Self.objectTypes(in: data)
        // Entity names are spelled back from the metadata's version hashes; the file writes them upper-cased.
        #expect(Set(model.entities.map { $0.entityName.uppercased() }) == Set(expected.keys))
        #expect(Set(model.entities.map(\.entityName)).isSubset(of: contents.modelVersionHashes.keys), "\(model.entities.map(\.entityName))")
        #expect(Dictionary(grouping: contents.objects, by: { $0.entity.entityName.uppercased() }).mapValues(\.count) == expected)
        // Ids run without gaps from z102 to nextObjectID (§14b).
        #expect(contents.objects.first?.reference == 102)
        #expect(contents.objects.last?.reference == contents.referenceHighWaterMark)
        #expect(contents.objects.count == Int(contents.referenceHighWaterMark) - 101)
        #expect(contents.metadata["NSStoreType"] == .string("XML"))
        #expect(contents.metadata["NSPersistenceFrameworkVersion"] == .integer(640))
        #expect(contents.modelVersionHashes.keys.sorted() == ["XDDevAttributeMapping", "XDDevEntityMapping", "XDDevMappingModel",
                                                               "XDDevPropertyMapping", "XDDevRelationshipMapping"])
        #expect(contents.modelVersionHashes.values.allSatisfy { $0.count == 32 })
        let entityMapping = try #require(model.entitiesByName["XDDevEntityMapping"])
        #expect(entityMapping.attributesByName["mappingnumber"]?.attributeType == .integer16AttributeType)
        #expect(entityMapping.relationshipsByName["attributemappings"]?.isToMany == true)
        #expect(entityMapping.relationshipsByName["mappingmodel"]?.isToMany == false)
    }

    @Test("Values and relationships of Moody 2-Moody 3, read with the mapping schema")
    func valuesWithSchema() throws {
        let data = try Self.data("Moody 2-Moody 3")
        let model = TestModels.xcodeMappingModel()
        let contents = try XMLStoreFormat.decode(data, model: model, file: "Moody 2-Moody 3")
        #expect(contents.storeUUID == "0E82928F-05F0-40AF-851B-1FA617A37DB3")
        #expect(contents.referenceHighWaterMark == 133)
        #expect(contents.objects.count == 32)
        let byReference = Dictionary(uniqueKeysWithValues: contents.objects.map { ($0.reference, $0) })
        let continent = try #require(byReference[107])
        #expect(continent.entity.entityName == "XDDevEntityMapping")
        #expect(continent.attributes["sourceName"] == .string("Continent"))
        #expect(continent.attributes["destinationName"] == .string("Continent"))
        #expect(continent.attributes["mappingNumber"] == .integer(3))
        #expect(continent.attributes["autogenerateExpression"] == .boolean(true))
        #expect(continent.attributes["migrationPolicyClassName"] == .string(""))  // an empty element is "", not nil
        #expect(continent.attributes["sourceExpressionData"] == nil)
        #expect(continent.relationships["mappingModel"] == [126])
        #expect(continent.relationships["attributeMappings"] == [112, 105, 109, 130, 103, 114])  // the file's order
        #expect(continent.relationships["relationshipMappings"] == [104, 133])
        let moods = try #require(byReference[106])
        #expect(moods.entity.entityName == "XDDevRelationshipMapping")
        #expect(moods.attributes["name"] == .string("moods"))
        #expect(moods.relationships["entityMapping"] == nil)  // written without idrefs
        let model126 = try #require(byReference[126])
        #expect(model126.attributes["sourceModelPath"] == .string("Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel"))
        guard case .data(let archived)? = model126.attributes["sourceModelData"] else {
            Issue.record("sourceModelData is not data")
            return
        }
        // The base64 (broken over lines) decodes to the archived model.
        #expect(archived.starts(with: Array("bplist00".utf8)))
        #expect(try KeyedArchive(data: archived).objects.count > 100)
    }

    @Test("Written again, each file reads back equal, with Apple's object elements", arguments: files)
    func rewrite(name: String) throws {
        let data = try Self.data(name)
        let model = TestModels.xcodeMappingModel()
        let contents = try XMLStoreFormat.decode(data, model: model, file: name)
        let written = try XMLStoreFormat.encode(contents, model: model)
        #expect(try XMLStoreFormat.decode(written, model: model, file: "rewritten") == contents)
        #expect(Self.objectTypes(in: written) == Self.objectTypes(in: data))
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" standalone=\"no\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">"))
        #expect(text.contains("<nextObjectID>\(contents.referenceHighWaterMark)</nextObjectID>"))
        #expect(text.contains("<attribute name=\"sourcename\" type=\"string\">"))
        #expect(text.contains("<relationship name=\"entitymapping\" type=\"0/1\" destination=\"XDDEVENTITYMAPPING\""))
        // The written file's metadata is Apple's, less the two keys this format keeps elsewhere.
        let original = try XMLStoreFormat.metadata(of: data, file: name)
        #expect(try XMLStoreFormat.metadata(of: written, file: "rewritten") == original)
    }
}
