import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// The reader must throw `PropertyListError`, never crash, hang or allocate without bound, on malformed input.
@Suite struct HostileBinaryInputTests {
    /// Reads `bytes` and returns the error thrown; records an issue if reading succeeds or throws anything else.
    private func readError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> PropertyListError? {
        do {
            let value = try BinaryPropertyListReader().read(bytes)
            Issue.record("expected an error, read \(value.typeName)", sourceLocation: sourceLocation)
        } catch let error as PropertyListError {
            return error
        } catch {
            Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func everyTruncationOfARealModelFailsWithAnOffset() throws {
        let bytes = try FixtureFiles.bytes("models/coredataplus-compiled-momd/SampleModel.momd/SampleModel.mom")
        #expect(throws: Never.self) { try BinaryPropertyListReader().read(bytes) }
        for length in 0..<bytes.count {
            let error = readError(Array(bytes.prefix(length)))
            #expect(error?.offset != nil, "length \(length): \(String(describing: error))")
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func corruptedBytesOfARealModelNeverCrash() throws {
        let original = try FixtureFiles.bytes("models/coredataplus-compiled-momd/SampleModel.momd/SampleModel.mom")
        var generator = SplitMix64(seed: 0x5EED)
        var failures = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try BinaryPropertyListReader().read(bytes)
            } catch is PropertyListError {
                failures += 1
            }
        }
        // Most corruptions land in strings or data and still parse; many must be detected.
        #expect(failures > 0)
    }

    @Test func randomBytesAfterTheSignatureNeverCrash() {
        var generator = SplitMix64(seed: 42)
        for length in [0, 1, 31, 32, 33, 40, 64, 200, 1000] {
            for _ in 0..<200 {
                let bytes = Array("bplist00".utf8) + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().read(bytes) }
            }
        }
    }

    @Test func randomTrailersAroundValidObjectsNeverCrash() throws {
        // Valid objects with random trailer fields exercise every trailer check.
        var generator = SplitMix64(seed: 7)
        let body = Array(BinaryPropertyListWriter().write(["a": [1, 2, "three"], "b": .data(Data(count: 20))]).dropLast(32))
        var rejected = 0
        for _ in 0..<5000 {
            var trailer = [UInt8](repeating: 0, count: 32)
            trailer[6] = UInt8.random(in: 0...9, using: &generator)
            trailer[7] = UInt8.random(in: 0...9, using: &generator)
            for index in 8..<32 where Bool.random(using: &generator) {
                trailer[index] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try BinaryPropertyListReader().read(body + trailer)
            } catch is PropertyListError {
                rejected += 1
            }
        }
        #expect(rejected > 4000)
    }

    @Test func anArrayThatContainsItselfIsRejected() {
        var plist = HandBuiltBinaryPlist()
        plist.addCollection(marker: 0xA1, references: [0])
        let error = readError(plist.bytes())
        #expect(error?.reason.contains("contains itself") == true)
        #expect(error?.offset == 8)
    }

    @Test func anIndirectCycleIsRejected() {
        var plist = HandBuiltBinaryPlist()
        plist.addCollection(marker: 0xD1, references: [1, 2])
        plist.add([0x51, UInt8(ascii: "k")])
        plist.addCollection(marker: 0xA1, references: [0])
        #expect(readError(plist.bytes())?.reason.contains("contains itself") == true)
    }

    @Test func sharedObjectsAreNotCycles() throws {
        // A diamond: both elements are the same array; decoded once, shared.
        var plist = HandBuiltBinaryPlist()
        plist.addCollection(marker: 0xA2, references: [1, 1])
        plist.addCollection(marker: 0xA1, references: [2])
        plist.add([0x10, 3])
        #expect(try BinaryPropertyListReader().read(plist.bytes()) == [[3], [3]])
    }

    @Test func exponentialSharingIsLinearToRead() throws {
        // Each level holds the next twice: 2^60 leaves as a tree, 61 objects on disk.
        var plist = HandBuiltBinaryPlist()
        for level in 0..<60 { plist.addCollection(marker: 0xA2, references: [level + 1, level + 1]) }
        plist.add([0x10, 1])
        let value = try BinaryPropertyListReader().read(plist.bytes())
        #expect(value[0]?[1]?[0] != nil)
    }

    @Test func nestingBeyondTheLimitIsRejected() throws {
        func nested(_ depth: Int) -> [UInt8] {
            var plist = HandBuiltBinaryPlist(referenceSize: 2, offsetSize: 2)
            for level in 0..<depth { plist.addCollection(marker: 0xA1, references: [level + 1]) }
            plist.add([0x10, 1])
            return plist.bytes()
        }
        _ = try BinaryPropertyListReader().read(nested(BinaryPropertyListReader.defaultMaximumDepth))
        #expect(readError(nested(BinaryPropertyListReader.defaultMaximumDepth + 1))?.reason.contains("nesting") == true)
        #expect(throws: PropertyListError.self) { try BinaryPropertyListReader(maximumDepth: 3).read(nested(4)) }
    }

    @Test(arguments: [
        ([0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] as [UInt8], "ASCII string"),
        ([0x6F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "UTF-16 string"),
        ([0x4F, 0x12, 0xFF, 0xFF, 0xFF, 0xFF], "data"),
        ([0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0], "collection"),
        ([0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0], "too large"),
        ([0xAF, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "negative or too large"),
        ([0xA3, 0x00, 0x01], "collection"),
    ])
    func hugeDeclaredCountsAreRejected(bytes: [UInt8], expectedReason: String) {
        var plist = HandBuiltBinaryPlist()
        plist.add(bytes)
        let error = readError(plist.bytes())
        #expect(error?.reason.contains(expectedReason) == true, "\(String(describing: error))")
        #expect(error?.offset.map { (8...9).contains($0) } == true)
    }

    @Test func hugeDeclaredObjectCountIsRejected() {
        var plist = HandBuiltBinaryPlist()
        plist.add([0x10, 1])
        plist.declaredObjectCount = UInt64.max / 2
        #expect(readError(plist.bytes())?.reason.contains("object count") == true)
    }

    @Test func danglingReferencesAndBadOffsetsAreRejected() {
        var dangling = HandBuiltBinaryPlist()
        dangling.addCollection(marker: 0xA1, references: [9])
        #expect(readError(dangling.bytes())?.reason.contains("object reference 9") == true)

        var badOffset = HandBuiltBinaryPlist()
        badOffset.add([0x10, 1])
        var bytes = badOffset.bytes()
        bytes[10] = 0xF0  // the single offset-table entry now points past the object area
        #expect(readError(bytes)?.reason.contains("outside the object area") == true)
    }

    @Test func nonStringKeysAndUnknownMarkersAreRejected() {
        var intKey = HandBuiltBinaryPlist()
        intKey.addCollection(marker: 0xD1, references: [1, 1])
        intKey.add([0x10, 1])
        #expect(readError(intKey.bytes())?.reason.contains("not a string") == true)

        for marker: UInt8 in [0x01, 0x0F, 0x15, 0x24, 0x34, 0x70, 0x88, 0x90, 0xE0, 0xF0] {
            var plist = HandBuiltBinaryPlist()
            plist.add([marker] + [UInt8](repeating: 0, count: 16))
            #expect(readError(plist.bytes())?.offset != nil, "marker \(marker)")
        }
    }

    @Test func invalidTextIsRejected() {
        var nonASCII = HandBuiltBinaryPlist()
        nonASCII.add([0x51, 0xE9])
        #expect(readError(nonASCII.bytes())?.reason.contains("ASCII") == true)

        var loneSurrogate = HandBuiltBinaryPlist()
        loneSurrogate.add([0x61, 0xD8, 0x00])
        #expect(readError(loneSurrogate.bytes())?.reason.contains("surrogate") == true)
    }

    @Test func otherFormatsAreNamedWhenSniffing() {
        #expect(throws: PropertyListError.self) { try PropertyList.read(Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40)) }
        #expect(throws: PropertyListError.self) { try PropertyList.read(Array("{ a = b; }".utf8)) }
        #expect(throws: PropertyListError.self) { try PropertyList.read([UInt8]()) }
    }
}

/// A small deterministic generator so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
