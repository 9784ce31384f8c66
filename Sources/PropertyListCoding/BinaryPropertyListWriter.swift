import Foundation

/// Writes `bplist00` binary property lists that Foundation's `PropertyListSerialization` and Apple's
/// CoreFoundation read.
///
/// Objects are numbered in pre-order from the top object (index 0), dictionary keys are sorted so the output is
/// deterministic, and, like Apple's writer, equal strings, numbers, dates, data, UIDs and booleans are stored once.
/// Reals are always written with 8 bytes; integers with the fewest bytes Apple uses (1, 2, 4 for small
/// non-negative values, 8 for negative ones, 16 for values above `Int64.max`).
public struct BinaryPropertyListWriter: Sendable {
    /// Whether equal leaf values (strings, numbers, dates, data, UIDs) share one object.
    public var uniquesLeafValues: Bool

    /// A writer; `uniquesLeafValues` makes the output smaller and matches Apple's.
    public init(uniquesLeafValues: Bool = true) {
        self.uniquesLeafValues = uniquesLeafValues
    }

    /// The binary property list for `value`.
    public func write(_ value: PropertyListValue) -> Data {
        var flattener = BinaryPropertyListFlattener(uniquesLeafValues: uniquesLeafValues)
        _ = flattener.add(value)
        return Data(BinaryPropertyListWriter.serialize(flattener.objects))
    }

    /// The smallest byte count (1, 2, 4 or 8) that holds `value` unsigned; Apple's size rule for offsets and refs.
    static func byteWidth(for value: UInt64) -> Int {
        if value <= UInt64(UInt8.max) { return 1 }
        if value <= UInt64(UInt16.max) { return 2 }
        if value <= UInt64(UInt32.max) { return 4 }
        return 8
    }

    private static func serialize(_ objects: [FlatObject]) -> [UInt8] {
        let referenceSize = byteWidth(for: UInt64(objects.count))
        var output = BinaryPropertyListReader.signature
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            append(object, referenceSize: referenceSize, to: &output)
        }
        let offsetTableStart = output.count
        let offsetSize = byteWidth(for: UInt64(offsetTableStart))
        for offset in offsets { appendBigEndian(UInt64(offset), width: offsetSize, to: &output) }
        output.append(contentsOf: [0, 0, 0, 0, 0, 0])  // five unused bytes and the sort version
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        appendBigEndian(UInt64(objects.count), width: 8, to: &output)
        appendBigEndian(0, width: 8, to: &output)  // the top object is always the first one written
        appendBigEndian(UInt64(offsetTableStart), width: 8, to: &output)
        return output
    }

    private static func append(_ object: FlatObject, referenceSize: Int, to output: inout [UInt8]) {
        switch object {
        case .leaf(let value):
            appendLeaf(value, to: &output)
        case .array(let references):
            appendMarker(0xA, count: references.count, to: &output)
            for reference in references { appendBigEndian(UInt64(reference), width: referenceSize, to: &output) }
        case .dictionary(let keys, let values):
            appendMarker(0xD, count: keys.count, to: &output)
            for reference in keys + values { appendBigEndian(UInt64(reference), width: referenceSize, to: &output) }
        }
    }

    private static func appendLeaf(_ value: PropertyListValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(0x00)
        case .bool(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .integer(let integer):
            appendInteger(integer, to: &output)
        case .unsignedInteger(let integer):
            if let signed = Int64(exactly: integer) {
                appendInteger(signed, to: &output)
            } else {
                output.append(0x14)
                appendBigEndian(0, width: 8, to: &output)
                appendBigEndian(integer, width: 8, to: &output)
            }
        case .real(let real):
            output.append(0x23)
            appendBigEndian(real.bitPattern, width: 8, to: &output)
        case .date(let date):
            output.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, width: 8, to: &output)
        case .data(let data):
            appendMarker(0x4, count: data.count, to: &output)
            output.append(contentsOf: data)
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: string.utf8.count, to: &output)
                output.append(contentsOf: string.utf8)
            } else {
                appendMarker(0x6, count: string.utf16.count, to: &output)
                for unit in string.utf16 { appendBigEndian(UInt64(unit), width: 2, to: &output) }
            }
        case .uid(let uid):
            let width = byteWidth(for: uid)
            output.append(0x80 | UInt8(width - 1))
            appendBigEndian(uid, width: width, to: &output)
        case .array, .dictionary:
            preconditionFailure("collections are flattened before serialization")
        }
    }

    private static func appendInteger(_ integer: Int64, to output: inout [UInt8]) {
        // Negative values always take 8 bytes: shorter integers are unsigned in bplist00.
        let width = integer < 0 ? 8 : byteWidth(for: UInt64(integer))
        output.append(0x10 | UInt8(width.trailingZeroBitCount))
        appendBigEndian(UInt64(bitPattern: integer), width: width, to: &output)
    }

    /// A marker byte with its count: in the low nibble when below 15, else as a following integer object.
    private static func appendMarker(_ type: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type << 4 | UInt8(count))
        } else {
            output.append(type << 4 | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    private static func appendBigEndian(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
