import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// `FlatKeyedArchive` against the value-tree reader it stands in for: whatever it opens, `KeyedArchive(bytes:)` opens
/// too, with the same `$objects`, `$top`, archiver and version; malformed or deep documents it refuses without a trap.
@Suite struct FlatKeyedArchiveTests {
    /// Every `$objects` entry, `$top` and the header fields agree with `KeyedArchive`.
    func expectSameAsTree(_ flat: FlatKeyedArchive, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tree = try KeyedArchive(bytes: bytes)
        #expect(flat.count == tree.objects.count, sourceLocation: sourceLocation)
        for uid in 0..<min(flat.count, tree.objects.count) {
            #expect(Self.same(flat.plainValue(ofObject: flat.entryObject(uid)), tree.objects[uid]), "entry \(uid)",
                    sourceLocation: sourceLocation)
        }
        #expect(Self.same(.dictionary(flat.top.mapValues { flat.plainValue(ofObject: $0) }), .dictionary(tree.top)),
                sourceLocation: sourceLocation)
        #expect(flat.archiverName == tree.archiverName && flat.version == tree.version, sourceLocation: sourceLocation)
    }

    /// `==`, except that reals and dates compare by their bits (NaNs included, which `==` never equates).
    static func same(_ left: PropertyListValue, _ right: PropertyListValue) -> Bool {
        switch (left, right) {
        case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
        case (.date(let a), .date(let b)): return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        default: return left == right
        }
    }

    static func randomString(using random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", "$null", "é", "e\u{301}", "\u{212A}", "K", "日本", "🙂", "NS.keys", "", " ", "ß"]
        return (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func randomValue(depth: Int, using random: inout SeededRandom) -> PropertyListValue {
        switch Int.random(in: 0..<(depth > 2 ? 7 : 9), using: &random) {
        case 0: return .string(randomString(using: &random))
        case 1: return .integer([0, 1, 255, 256, 65_535, 65_536, -1, .min, .max, Int64.random(in: .min ... .max, using: &random)]
            .randomElement(using: &random)!)
        case 2: return .real([0, -0.0, 1.5, .infinity, Double.random(in: -1e9...1e9, using: &random)].randomElement(using: &random)!)
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .data(Data((0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        case 5: return .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000...1_000_000, using: &random))))
        case 6: return .integer(Int64(Int.random(in: 0...20, using: &random)))
        case 7: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var entries: [String: PropertyListValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) { entries[randomString(using: &random)] = randomValue(depth: depth + 1, using: &random) }
            return .dictionary(entries)
        }
    }

    /// A keyed archive of random Foundation values and custom objects with inline fields and UID lists.
    static func randomArchive(using random: inout SeededRandom) throws -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        var references: [ArchivedObjectReference] = []
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                references.append(try builder.add(randomValue(depth: 0, using: &random)))
            case 1:
                references.append(builder.addArray(references.shuffled(using: &random), className: ["NSArray", "NSMutableArray", "NSSet"]
                    .randomElement(using: &random)!))
            default:
                var fields: [String: PropertyListValue] = [:]
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    let name = randomString(using: &random)
                    fields[name == "$class" ? "x" : name] = [
                        .integer(Int64.random(in: -5...5, using: &random)), .real(2.5), .bool(true),
                        references.randomElement(using: &random)?.uid ?? .uid(0),
                        .array(references.prefix(3).map(\.uid)),
                    ].randomElement(using: &random)!
                }
                references.append(builder.addObject(className: randomString(using: &random) + "Thing", fields: fields))
            }
        }
        builder.setTopObject(references.randomElement(using: &random)!, forKey: "mapData")
        builder.setTopObject(references[0])
        return Array(try builder.binaryData())
    }

    @Test func randomArchivesReadAsTheTreeReaderReadsThem() throws {
        var random = SeededRandom(seed: 0xF1A7)
        for _ in 0..<300 {
            let bytes = try Self.randomArchive(using: &random)
            try expectSameAsTree(try FlatKeyedArchive(bytes: bytes), bytes)
        }
    }

    /// The guarantee callers rely on: damaged bytes either fail here, or read exactly as the tree reader reads them.
    @Test func damagedArchivesFailOrReadAsTheTreeReaderReadsThem() throws {
        var random = SeededRandom(seed: 0xDA3A6E)
        var opened = 0, refused = 0
        for _ in 0..<3_000 {
            var bytes = try Self.randomArchive(using: &random)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
                default: bytes.removeLast(Int.random(in: 0...min(8, bytes.count), using: &random))
                }
            }
            guard let flat = try? FlatKeyedArchive(bytes: bytes) else {
                refused += 1
                continue
            }
            opened += 1
            try expectSameAsTree(flat, bytes)
        }
        #expect(opened > 100 && refused > 100)
    }

    @Test func readsInPlace() throws {
        var builder = KeyedArchiveBuilder()
        let name = builder.addString("Ann")
        let node = builder.addObject(className: "Person", fields: ["name": name.uid, "age": 42, "tags": .array([name.uid])])
        builder.setTopObject(node, forKey: "mapData")
        let flat = try FlatKeyedArchive(bytes: Array(try builder.binaryData()))
        #expect(flat.archiverName == "NSKeyedArchiver" && flat.version == 100_000)
        guard case .uid(let uid)? = flat.topValue(forKey: "mapData"), case .dictionary(let fields)? = flat.entry(uid) else {
            Issue.record("mapData is not a UID to an object")
            return
        }
        var values: [String: FlatKeyedArchive.Value] = [:]
        for index in 0..<fields.count {
            guard case .string(let key) = flat.value(ofObject: flat.key(fields, at: index)) else { continue }
            values[flat.string(key)] = flat.value(ofObject: flat.value(fields, at: index))
        }
        #expect(values["age"] == .integer(42))
        guard case .uid(let nameUID)? = values["name"], case .string(let text)? = flat.entry(nameUID),
              case .array(let tags)? = values["tags"] else {
            Issue.record("fields read wrong: \(values)")
            return
        }
        #expect(flat.string(text) == "Ann")
        #expect(tags.count == 1 && flat.value(ofObject: flat.element(tags, at: 0)) == .uid(nameUID))
        #expect(flat.entry(UInt64(flat.count)) == nil)
        #expect(flat.topValue(forKey: "root") == nil)
    }

    /// A keyed archive wrapper around `objects`, hand-built: object 0 is the top dictionary.
    static func handBuilt(objectsArray: [Int], extra: [[UInt8]] = [], collections: [(marker: UInt8, references: [Int])] = []) -> [UInt8] {
        var plist = HandBuiltBinaryPlist()
        // 0: top {$archiver: 1, $objects: 2, $top: 3, $version: 4}; 5...: keys; then the caller's objects.
        plist.addCollection(marker: 0xD4, references: [5, 6, 7, 8, 1, 2, 3, 4])
        plist.add([0x5F, 0x10, 0x0F] + Array("NSKeyedArchiver".utf8))
        plist.addCollection(marker: 0xA0 | UInt8(objectsArray.count), references: objectsArray)
        plist.addCollection(marker: 0xD0, references: [])
        plist.add([0x12, 0x00, 0x01, 0x86, 0xA0])
        for key in ["$archiver", "$objects", "$top", "$version"] { plist.add([0x50 | UInt8(key.utf8.count)] + Array(key.utf8)) }
        for bytes in extra { plist.add(bytes) }
        for collection in collections { plist.addCollection(marker: collection.marker, references: collection.references) }
        return plist.bytes()
    }

    @Test func theHandBuiltWrapperOpens() throws {
        let bytes = Self.handBuilt(objectsArray: [10], extra: [[0x54] + Array("$nul".utf8), [0x10, 0x07]])
        let flat = try FlatKeyedArchive(bytes: bytes)
        try expectSameAsTree(flat, bytes)
        #expect(flat.count == 1 && flat.entry(0) == .integer(7))
    }

    @Test func malformedAndDeepDocumentsAreRefused() throws {
        var random = SeededRandom(seed: 7)
        let valid = try Self.randomArchive(using: &random)
        var cases: [(String, [UInt8])] = [
            ("empty", []), ("XML", Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8)),
            ("truncated", Array(valid.prefix(valid.count - 1))), ("no trailer", Array(valid.prefix(20))),
            // An array inside an object inside an inline collection: deeper than archivers write.
            ("deep", Self.handBuilt(objectsArray: [9], collections: [(0xA1, [10]), (0xA1, [11]), (0xA1, [12]), (0xA0, [])])),
            // An array that contains itself.
            ("cycle", Self.handBuilt(objectsArray: [9], collections: [(0xA1, [9])])),
            // A dictionary keyed by a number.
            ("number key", Self.handBuilt(objectsArray: [10], extra: [[0x10, 0x01]], collections: [(0xD1, [9, 9])])),
            ("reference past the end", Self.handBuilt(objectsArray: [40])),
            ("non-ASCII in an ASCII string", Self.handBuilt(objectsArray: [9], extra: [[0x52, 0x41, 0xC3]])),
            ("unpaired surrogate", Self.handBuilt(objectsArray: [9], extra: [[0x61, 0xD8, 0x00]])),
            ("unknown marker", Self.handBuilt(objectsArray: [9], extra: [[0x70]])),
            ("16-byte integer above 64 bits", Self.handBuilt(objectsArray: [9], extra: [[0x14] + [UInt8](repeating: 1, count: 16)])),
        ]
        // An object the archive never reaches is still checked.
        cases.append(("unreachable bad object", Self.handBuilt(objectsArray: [], extra: [[0x23, 0, 0]])))
        for (name, bytes) in cases {
            #expect(throws: PropertyListError.self, "\(name)") { try FlatKeyedArchive(bytes: bytes) }
        }
        // The shapes refused here for depth or cycles are the tree reader's to judge: it reads the deep one.
        #expect(throws: Never.self) { try KeyedArchive(bytes: cases[4].1) }
        #expect(throws: PropertyListError.self) { try KeyedArchive(bytes: cases[5].1) }
    }
}
