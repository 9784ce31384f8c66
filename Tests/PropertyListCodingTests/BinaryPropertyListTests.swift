import Foundation
import PropertyListCoding
import Testing

@Suite struct BinaryPropertyListTests {
    static let samples: [PropertyListValue] = [
        "", "ascii", "naïve ünïcödé", "emoji 🚀 outside the BMP", .string(String(repeating: "x", count: 300)),
        0, 1, 255, 256, 65_535, 65_536, .integer(Int64(UInt32.max)), .integer(Int64(UInt32.max) + 1),
        -1, .integer(Int64.min), .integer(Int64.max), .unsignedInteger(UInt64.max), .unsignedInteger(1 << 63),
        0.0, -0.0, 0.1, 1e300, -2.5, .real(.infinity), .real(-.infinity), true, false,
        .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -1e9 + 0.25)),
        .data(Data()), .data(Data(0...255)), [], [1, "two", 3.0, [true]],
        .array((0..<20).map { .integer($0) }), [:], ["key": "value", "nested": ["a": [1, 2], "b": [:]]],
        .dictionary(Dictionary(uniqueKeysWithValues: (0..<40).map { ("key\($0)", .integer(Int64($0))) })),
    ]

    @Test(arguments: samples)
    func roundTripsThroughOurWriterAndReader(_ value: PropertyListValue) throws {
        let bytes = BinaryPropertyListWriter().write(value)
        #expect(try BinaryPropertyListReader().read(bytes) == value)
        #expect(try PropertyList.read(bytes) == value)
    }

    @Test(arguments: samples)
    func foundationReadsWhatWeWrite(_ value: PropertyListValue) throws {
        let bytes = BinaryPropertyListWriter().write(value)
        #expect(try FoundationBridge.foundationRead(bytes) == value)
    }

    @Test(arguments: samples)
    func weReadWhatFoundationWrites(_ value: PropertyListValue) throws {
        let bytes = try FoundationBridge.foundationWrite(value, format: .binary)
        #expect(try BinaryPropertyListReader().read(bytes) == value)
    }

    @Test func uidsAndNullRoundTrip() throws {
        let value: PropertyListValue = [.uid(0), .uid(255), .uid(256), .uid(70_000), .uid(UInt64(UInt32.max) + 1), .null]
        #expect(try BinaryPropertyListReader().read(BinaryPropertyListWriter().write(value)) == value)
    }

    @Test func equalLeavesAreStoredOnce() throws {
        let value: PropertyListValue = ["a": "same", "b": "same", "c": [1, 1, 1, "same"]]
        let uniqued = BinaryPropertyListWriter().write(value)
        let plain = BinaryPropertyListWriter(uniquesLeafValues: false).write(value)
        // Objects: dict, 3 keys, "same", array, 1 = 7 (uniqued) versus dict, 3 keys, 2×"same", array, 4 leaves = 11.
        #expect(objectCount(uniqued) == 7)
        #expect(objectCount(plain) == 11)
        #expect(try BinaryPropertyListReader().read(plain) == value)
    }

    @Test func zeroAndNegativeZeroAreNotMerged() throws {
        let value: PropertyListValue = [0.0, -0.0, 0, false]
        let read = try BinaryPropertyListReader().read(BinaryPropertyListWriter().write(value))
        #expect(read[1]?.doubleValue?.sign == .minus)
        #expect(read[0]?.doubleValue?.sign == .plus)
        #expect(read == value)
    }

    @Test func outputIsDeterministic() throws {
        let value = Self.samples.last!
        #expect(BinaryPropertyListWriter().write(value) == BinaryPropertyListWriter().write(value))
    }

    @Test func manyObjectsNeedWiderReferencesAndOffsets() throws {
        // 70,000 distinct strings: 4-byte object references and 4-byte offsets.
        let value = PropertyListValue.array((0..<70_000).map { .string("s\($0)") })
        let bytes = BinaryPropertyListWriter().write(value)
        #expect(bytes[bytes.count - 25] == 4)  // object reference size
        #expect(bytes[bytes.count - 26] == 4)  // offset size
        #expect(try BinaryPropertyListReader().read(bytes) == value)
        #expect(try FoundationBridge.foundationRead(bytes) == value)
    }

    @Test(arguments: 1...8, 1...8)
    func readsEveryReferenceAndOffsetSize(referenceSize: Int, offsetSize: Int) throws {
        var plist = HandBuiltBinaryPlist(referenceSize: referenceSize, offsetSize: offsetSize)
        plist.addCollection(marker: 0xD2, references: [1, 2, 3, 4])
        plist.add([0x51, UInt8(ascii: "a")])
        plist.add([0x51, UInt8(ascii: "b")])
        plist.add([0x10, 7])
        plist.addCollection(marker: 0xA1, references: [3])
        #expect(try BinaryPropertyListReader().read(plist.bytes()) == ["a": 7, "b": [7]])
    }

    @Test(arguments: [
        ([0x10, 0xFF] as [UInt8], PropertyListValue.integer(255)),
        ([0x11, 0xFF, 0xFE], .integer(65_534)),
        ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], .integer(4_294_967_295)),
        ([0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE], .integer(-2)),
        ([0x14] + [UInt8](repeating: 0, count: 8) + [0x80, 0, 0, 0, 0, 0, 0, 1], .unsignedInteger(1 << 63 + 1)),
        ([0x14] + [UInt8](repeating: 0xFF, count: 15) + [0xFD], .integer(-3)),
        ([0x14] + [UInt8](repeating: 0, count: 15) + [9], .integer(9)),
        ([0x22, 0x3F, 0xC0, 0x00, 0x00], .real(1.5)),
        ([0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0], .real(1.5)),
        ([0x33, 0x41, 0xCD, 0xCD, 0x65, 0x00, 0, 0, 0], .date(Date(timeIntervalSinceReferenceDate: 1_000_000_000))),
        ([0x61, 0x00, 0xE9], .string("é")),
        ([0x62, 0xD8, 0x3D, 0xDE, 0x80], .string("🚀")),
        ([0x80, 0x05], .uid(5)),
        ([0x87, 0, 0, 0, 0, 0, 0, 1, 0], .uid(256)),
        ([0x00], .null),
        ([0x4F, 0x10, 0x02, 0xAB, 0xCD], .data(Data([0xAB, 0xCD]))),
    ])
    func decodesEachEncoding(bytes: [UInt8], expected: PropertyListValue) throws {
        var plist = HandBuiltBinaryPlist()
        plist.add(bytes)
        #expect(try BinaryPropertyListReader().read(plist.bytes()) == expected)
    }

    @Test func setsAndOrderedSetsReadAsArrays() throws {
        for marker: UInt8 in [0xB2, 0xC2] {
            var plist = HandBuiltBinaryPlist()
            plist.addCollection(marker: marker, references: [1, 2])
            plist.add([0x10, 1])
            plist.add([0x10, 2])
            #expect(try BinaryPropertyListReader().read(plist.bytes()) == [1, 2])
        }
    }

    private func objectCount(_ bytes: Data) -> Int {
        Int(bytes.suffix(24).prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
    }
}
