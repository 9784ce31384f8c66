@testable import AtomicStoreFormats
import CoreDataModel
import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// The binary store's map read in place (`FlatKeyedArchive`, `BinaryStoreMapFlatPath`) against the map read through
/// the archive's value tree (what every file was read with before): the same contents from every file, the same error
/// from every damaged one.
@Suite("Binary store: the map read in place")
struct BinaryMapInPlaceTests {
    /// Both ways of reading `data`: the contents, or the error.
    func bothReadings(_ data: Data, model: NSManagedObjectModel) -> (inPlace: Result<StoreFileContents, StoreFileError>,
                                                                     tree: Result<StoreFileContents, StoreFileError>) {
        func reading(_ inPlace: Bool) -> Result<StoreFileContents, StoreFileError> {
            Result { () throws(StoreFileError) in
                try BinaryStoreFormat.decode(data, model: model, file: "map.binary", readsMapInPlace: inPlace)
            }
        }
        return (reading(true), reading(false))
    }

    /// Random contents of the Person/Pet model, whose values are all of the shapes read in place.
    static func plainContents(count: Int, seed: UInt64) -> StoreFileContents {
        var random = SeededRandom(seed: seed)
        let model = BinaryContainerTests.model
        let person = model.entitiesByName["Person"]!, pet = model.entitiesByName["Pet"]!
        var objects: [StoreFileObject] = []
        for reference in 1...Int64(count) {
            let isPerson = reference % 3 == 1
            var object = StoreFileObject(entity: isPerson ? person : pet, reference: reference)
            for name in object.entity.attributesByName.keys.sorted() where Int.random(in: 0..<4, using: &random) > 0 {
                object.attributes[name] = RandomContents.value(for: object.entity.attributesByName[name]!.attributeType, using: &random)
            }
            objects.append(object)
        }
        // Each pet belongs to the person before it, when there is one.
        for index in objects.indices where objects[index].entity === pet {
            guard let owner = objects[..<index].lastIndex(where: { $0.entity === person }), Bool.random(using: &random) else { continue }
            objects[index].relationships["owner"] = [objects[owner].reference]
            objects[owner].relationships["pets", default: []].append(objects[index].reference)
        }
        return StoreFileContents(metadata: ["NSStoreType": .string("Binary"), "NSStoreUUID": .string("F1A7")],
                                 referenceHighWaterMark: Int64(count) + 3, objects: objects)
    }

    @Test("Plain values, every attribute type, and a map with both kinds of node read the same both ways", arguments: [1, 2, 3])
    func sameContents(seed: UInt64) throws {
        let plain = Self.plainContents(count: 50, seed: seed)
        let plainFile = try BinaryStoreFormat.encode(plain, model: BinaryContainerTests.model)
        let (inPlace, tree) = bothReadings(plainFile, model: BinaryContainerTests.model)
        #expect(try inPlace.get() == plain)
        #expect(try tree.get() == plain)
        // Decimals, UUIDs, URIs and transformable objects are archived objects: those nodes go to the other readers.
        let model = TestModels.everyType()
        let mixed = RandomContents.make(model: model, count: 60, storeType: BinaryStoreFormat.storeType, seed: seed)
        let mixedFile = try BinaryStoreFormat.encode(mixed, model: model)
        let both = bothReadings(mixedFile, model: model)
        #expect(try both.inPlace.get().objects == mixed.objects)
        #expect(try both.tree.get().objects == mixed.objects)
    }

    /// The comparisons above mean something only if the in-place reader takes these nodes itself.
    @Test("The in-place reader takes every node of plain values and Apple's layout, and declines archived objects")
    func takesTheUsualNodes() throws {
        func taken(_ data: Data, model: NSManagedObjectModel) throws -> (taken: Int, entries: Int) {
            let bytes = Array(data)
            let header = try BinaryStoreHeader(reading: bytes, file: "map.binary")
            var path = BinaryStoreMapFlatPath(archive: try FlatKeyedArchive(bytes: Array(bytes[header.mapRange])),
                                              schema: StoreFileSchema(model: model))
            let found = path.entries()
            let entries = try #require(found)
            var count = 0
            for entry in entries {
                if let key = path.key(entry.key), path.object(key, node: entry.node) != nil { count += 1 }
            }
            return (count, entries.count)
        }
        let plain = try taken(try BinaryStoreFormat.encode(Self.plainContents(count: 40, seed: 9), model: BinaryContainerTests.model),
                              model: BinaryContainerTests.model)
        #expect(plain.taken == 40 && plain.entries == 40)
        let apple = try taken(try BinaryContainerTests.appleLikeFile(), model: BinaryContainerTests.model)
        #expect(apple.taken == 3 && apple.entries == 3)
        let model = TestModels.everyType()
        let mixed = try taken(try BinaryStoreFormat.encode(RandomContents.make(model: model, count: 60, storeType: "Binary", seed: 4),
                                                           model: model), model: model)
        #expect(mixed.entries == 60 && mixed.taken < 60)
    }

    @Test("Apple's layout reads the same both ways")
    func appleLayout() throws {
        let (inPlace, tree) = bothReadings(try BinaryContainerTests.appleLikeFile(), model: BinaryContainerTests.model)
        #expect(try inPlace.get() == tree.get())
    }

    /// Damage anywhere in the map: both readings give the same contents or the same error (file, place, reason).
    @Test("Damaged maps read the same both ways", arguments: [0x5EED, 0xB17E])
    func damagedMaps(seed: UInt64) throws {
        let model = BinaryContainerTests.model
        var random = SeededRandom(seed: seed)
        let file = Array(try BinaryStoreFormat.encode(Self.plainContents(count: 12, seed: seed), model: model))
        let header = try BinaryStoreHeader(reading: file, file: "map.binary")
        var outcomes: [String: Int] = [:]
        for _ in 0..<400 {
            var damaged = file
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let position = Int.random(in: header.mapRange, using: &random)
                if Bool.random(using: &random) {
                    damaged[position] = UInt8.random(in: 0...255, using: &random)
                } else {
                    damaged[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
                }
            }
            let (inPlace, tree) = bothReadings(Data(damaged), model: model)
            switch (inPlace, tree) {
            case (.success(let left), .success(let right)):
                #expect(left == right)
                outcomes["read", default: 0] += 1
            case (.failure(let left), .failure(let right)):
                #expect(left == right)
                outcomes["refused", default: 0] += 1
            default:
                Issue.record("the readings differ: in place \(inPlace), tree \(tree)")
            }
        }
        #expect((outcomes["read"] ?? 0) > 20 && (outcomes["refused"] ?? 0) > 20, "\(outcomes)")
    }
}
