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
