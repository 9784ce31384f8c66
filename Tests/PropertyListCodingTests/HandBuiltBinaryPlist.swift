/// Builds `bplist00` files byte by byte with any reference and offset sizes, for cases no writer produces
/// (3-, 5-, 6- and 7-byte offsets, hostile references).
struct HandBuiltBinaryPlist {
    var referenceSize = 1
    var offsetSize = 1
    var topObject = 0
    /// Each object's bytes, given a function that encodes a reference at `referenceSize`.
    var objects: [(_ reference: (Int) -> [UInt8]) -> [UInt8]] = []
    /// Replaces the object count in the trailer when set.
    var declaredObjectCount: UInt64?

    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    mutating func add(_ bytes: [UInt8]) {
        objects.append { _ in bytes }
    }

    mutating func addCollection(marker: UInt8, references: [Int]) {
        objects.append { encode in [marker] + references.flatMap(encode) }
    }

    func bytes() -> [UInt8] {
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        let encodeReference = { (reference: Int) in Self.bigEndian(UInt64(reference), width: referenceSize) }
        for object in objects {
            offsets.append(output.count)
            output += object(encodeReference)
        }
        let tableStart = output.count
        for offset in offsets { output += Self.bigEndian(UInt64(offset), width: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        output += Self.bigEndian(declaredObjectCount ?? UInt64(objects.count), width: 8)
        output += Self.bigEndian(UInt64(topObject), width: 8)
        output += Self.bigEndian(UInt64(tableStart), width: 8)
        return output
    }
}
