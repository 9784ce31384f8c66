import AtomicStoreFormats
import CoreDataModel
import Foundation
import PropertyListCoding
import Testing

/// Transformable values: the transformed bytes (a keyed archive, as the default transformer makes) in the neutral
/// form, the archived object itself inline in a binary store's map, as Apple's files hold it (§14b).
@Suite("Binary store: transformable values")
struct TransformableTests {
    static let model = TestModels.everyType()

    /// What the default transformer makes of `["red": 0.5, "name": "sky"]`.
    static func archivedDictionary() throws -> Data {
        var builder = KeyedArchiveBuilder()
        builder.setTopObject(try builder.add(.dictionary(["red": .real(0.5), "name": "sky"])))
        return try builder.binaryData()
    }

    @Test("An archive value is stored as the object inline, and reads back as an archive of the same object")
    func inlineObject() throws {
        let note = Self.model.entitiesByName["Note"]!
        let contents = StoreFileContents(metadata: ["NSStoreType": "Binary"], referenceHighWaterMark: 1, objects: [
            StoreFileObject(entity: note, reference: 1, attributes: ["colour": .data(try Self.archivedDictionary())]),
        ])
        let bytes = try BinaryStoreFormat.encode(contents, model: Self.model)
        // Inside the map, the value is an NSDictionary object, not NSData.
        let header = try BinaryStoreHeader(reading: [UInt8](bytes), file: "t")
        let map = try KeyedArchive(bytes: Array([UInt8](bytes)[header.mapRange]))
        let node = try map.object(try #require(try map.topObject(forKey: "mapData").dictionaryEntries()[0].value.objectReference))
        let values = try #require(try node.object(forKey: "NSAttributeValues")).elements()
        let colourPosition = try #require(["blob", "colour", "created", "done", "identifier", "large", "link", "medium", "price",
                                           "ratio", "small", "title", "weight"].firstIndex(of: "colour"))
        let inline = try map.object(try #require(values[colourPosition].objectReference))
        #expect(inline.className == "NSDictionary")
        // Read back: the transformed bytes again, an archive of the same dictionary.
        let decoded = try BinaryStoreFormat.decode(bytes, model: Self.model, file: "t")
        guard case .data(let archived)? = decoded.objects[0].attributes["colour"] else {
            Issue.record("no data")
            return
        }
        #expect(try KeyedArchive(data: archived).plainTopValue() == .dictionary(["red": .real(0.5), "name": "sky"]))
        // And stable from then on: writing what was read gives the same file.
        #expect(try BinaryStoreFormat.encode(decoded, model: Self.model) == bytes)
    }

    @Test("Bytes that are not an archive stay NSData")
    func plainBytes() throws {
        let note = Self.model.entitiesByName["Note"]!
        let contents = StoreFileContents(metadata: ["NSStoreType": "Binary"], referenceHighWaterMark: 1, objects: [
            StoreFileObject(entity: note, reference: 1, attributes: ["colour": .data(Data("bplist00 but not really".utf8))]),
        ])
        let bytes = try BinaryStoreFormat.encode(contents, model: Self.model)
        #expect(try BinaryStoreFormat.decode(bytes, model: Self.model, file: "t") == contents)
    }
}
