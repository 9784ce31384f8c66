import AtomicStoreFormats
import CoreDataModel
import Foundation
import PropertyListCoding
import Testing

@Suite("Atomic store formats: round trips")
struct RoundTripTests {
    static let model = TestModels.everyType()

    @Test("XML: decode(encode(x)) == x for random contents", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func xmlRoundTrip(seed: UInt64) throws {
        let contents = RandomContents.make(model: Self.model, count: 60, storeType: XMLStoreFormat.storeType, seed: seed)
        let bytes = try XMLStoreFormat.encode(contents, model: Self.model)
        let decoded = try XMLStoreFormat.decode(bytes, model: Self.model, file: "random.xml")
        expectEqual(decoded, contents)
        // Deterministic bytes: the same contents, shuffled, write the same file.
        var shuffled = contents
        shuffled.objects.reverse()
        #expect(try XMLStoreFormat.encode(shuffled, model: Self.model) == bytes)
    }

    @Test("Binary: decode(encode(x)) == x for random contents", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func binaryRoundTrip(seed: UInt64) throws {
        let contents = RandomContents.make(model: Self.model, count: 60, storeType: BinaryStoreFormat.storeType, seed: seed)
        let bytes = try BinaryStoreFormat.encode(contents, model: Self.model)
        let decoded = try BinaryStoreFormat.decode(bytes, model: Self.model, file: "random.binary")
        expectEqual(decoded, contents)
        var shuffled = contents
        shuffled.objects.reverse()
        #expect(try BinaryStoreFormat.encode(shuffled, model: Self.model) == bytes)
    }

    @Test("XML → binary → XML keeps every object, value and relationship order")
    func acrossFormats() throws {
        var contents = RandomContents.make(model: Self.model, count: 40, storeType: XMLStoreFormat.storeType, seed: 99)
        let binary = try BinaryStoreFormat.decode(try BinaryStoreFormat.encode(contents, model: Self.model),
                                                  model: Self.model, file: "b")
        #expect(binary.metadata[StoreMetadataKey.storeType] == .string("Binary"))
        let xml = try XMLStoreFormat.decode(try XMLStoreFormat.encode(binary, model: Self.model), model: Self.model, file: "x")
        contents.metadata[StoreMetadataKey.storeType] = .string("XML")
        expectEqual(xml, contents)
    }

    @Test("Empty contents round-trip in both formats")
    func empty() throws {
        let contents = StoreFileContents(metadata: [StoreMetadataKey.storeType: .string("XML")], referenceHighWaterMark: 0, objects: [])
        #expect(try XMLStoreFormat.decode(XMLStoreFormat.encode(contents, model: Self.model), model: Self.model, file: "e") == contents)
        var binary = contents
        binary.metadata[StoreMetadataKey.storeType] = .string("Binary")
        #expect(try BinaryStoreFormat.decode(BinaryStoreFormat.encode(binary, model: Self.model), model: Self.model, file: "e") == binary)
    }

    @Test("Metadata whose keys or strings span lines reads back exactly (found by fuzzing: indenting the plist changed them)")
    func multiLineMetadata() throws {
        let contents = StoreFileContents(metadata: ["NSStoreType": "XML", "multi\nline key": "a\n  b\n", "plain": "x"],
                                         referenceHighWaterMark: 0, objects: [])
        let bytes = try XMLStoreFormat.encode(contents, model: Self.model)
        let decoded = try XMLStoreFormat.decode(bytes, model: Self.model, file: "lines.xml")
        #expect(decoded == contents)
        #expect(try XMLStoreFormat.encode(decoded, model: Self.model) == bytes)
    }

    @Test("An XML store over 10 MB reads (XMLParser given the whole document fails past libxml2's 10 MB chunk limit)")
    func largeXML() throws {
        let folder = Self.model.entitiesByName["Folder"]!
        let text = String(repeating: "0123456789abcdef", count: 64)
        let objects = (1...12_000).map { StoreFileObject(entity: folder, reference: Int64($0), attributes: ["name": .string(text)]) }
        let contents = StoreFileContents(metadata: ["NSStoreType": "XML"], referenceHighWaterMark: 12_000, objects: objects)
        let bytes = try XMLStoreFormat.encode(contents, model: Self.model)
        #expect(bytes.count > 11 << 20)
        let decoded = try XMLStoreFormat.decode(bytes, model: Self.model, file: "large.xml")
        #expect(decoded.objects.count == 12_000)
        #expect(decoded.objects.last?.attributes["name"] == .string(text))
    }

    /// Object by object, so a failure names what differs rather than printing two whole graphs.
    private func expectEqual(_ decoded: StoreFileContents, _ expected: StoreFileContents) {
        #expect(decoded.metadata == expected.metadata)
        #expect(decoded.referenceHighWaterMark == expected.referenceHighWaterMark)
        #expect(decoded.objects.count == expected.objects.count)
        for (got, want) in zip(decoded.objects, expected.objects) where got != want {
            #expect(got.entity === want.entity && got.reference == want.reference)
            for (name, value) in want.attributes where got.attributes[name] != value {
                Issue.record("object \(want.reference) \(name): \(String(describing: got.attributes[name])) != \(value)")
            }
            #expect(Set(got.attributes.keys) == Set(want.attributes.keys), "object \(want.reference)")
            #expect(got.relationships == want.relationships, "object \(want.reference)")
        }
        let equal = decoded == expected
        #expect(equal)
    }
}

@Suite("XML store: case-folded names")
struct FoldedNameTests {
    @Test("Names whose case mapping changes length (ß → SS) are written folded and found again")
    func eszett() throws {
        let street = NSEntityDescription(name: "Straße")
        street.setProperties([NSAttributeDescription(name: "Größe", type: .integer32AttributeType)])
        let model = NSManagedObjectModel(entities: [street])
        let contents = StoreFileContents(metadata: ["NSStoreType": "XML"], referenceHighWaterMark: 1,
                                         objects: [StoreFileObject(entity: street, reference: 1, attributes: ["Größe": .integer(7)])])
        let bytes = try XMLStoreFormat.encode(contents, model: model)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<object type=\"STRASSE\" id=\"z1\">"))
        #expect(text.contains("<attribute name=\"größe\" type=\"int32\">7</attribute>"))
        #expect(try XMLStoreFormat.decode(bytes, model: model, file: "folded.xml") == contents)
    }

    @Test("A file we wrote reads with a model inferred from it alone")
    func inferredFromOurFile() throws {
        let model = TestModels.everyType()
        let contents = RandomContents.make(model: model, count: 30, storeType: "XML", seed: 5)
        let bytes = try XMLStoreFormat.encode(contents, model: model)
        let inferred = try XMLStoreFormat.inferModel(from: bytes, file: "ours.xml")
        let decoded = try XMLStoreFormat.decode(bytes, model: inferred, file: "ours.xml")
        #expect(decoded.objects.map(\.reference) == contents.objects.map(\.reference))
        // Entity names are spelled back from the metadata's version hashes; property names stay as written.
        #expect(decoded.objects.map { $0.entity.entityName } == contents.objects.map { $0.entity.entityName })
        for (got, want) in zip(decoded.objects, contents.objects) {
            #expect(got.attributes.count == want.attributes.count)
            #expect(got.relationships == Dictionary(uniqueKeysWithValues: want.relationships.map { ($0.key.lowercased(), $0.value) }))
        }
        // Every concrete entity's stored attributes appear, with their types.
        let note = try #require(inferred.entitiesByName["Note"])
        #expect(note.attributesByName["price"]?.attributeType == .decimalAttributeType)
        #expect(note.attributesByName["identifier"]?.attributeType == .UUIDAttributeType)
        #expect(inferred.entitiesByName["Task"]?.relationshipsByName["steps"]?.isToMany == true)
        // Without the hashes in the metadata, the names stay as the file writes them.
        var bare = contents
        bare.metadata["NSStoreModelVersionHashes"] = nil
        let written = try XMLStoreFormat.encode(bare, model: model)
        let folded = try XMLStoreFormat.inferModel(from: written, file: "bare.xml")
        #expect(!folded.entities.isEmpty && folded.entities.allSatisfy { $0.entityName == $0.entityName.uppercased() }, "\(folded.entities.map(\.entityName))")
    }
}
