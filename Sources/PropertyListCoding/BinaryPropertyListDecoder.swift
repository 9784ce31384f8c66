import Foundation

/// The trailer's fields: the last 32 bytes of a binary property list.
struct BinaryPropertyListTrailer {
    static let size = 32
    var offsetIntegerSize: Int
    var objectReferenceSize: Int
    var objectCount: Int
    var topObject: Int
    var offsetTableStart: Int
}

/// One decoding pass over one document; holds the memo of objects decoded so far.
struct BinaryPropertyListDecoder {
    let bytes: [UInt8]
    let maximumDepth: Int
    let trailer: BinaryPropertyListTrailer
    /// Objects occupy `[8, objectAreaEnd)`: after the header, before the offset table.
    let objectAreaEnd: Int
    private var decoded: [PropertyListValue?]
    private var inProgress: [Bool]

    init(bytes: [UInt8], maximumDepth: Int) throws {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        guard bytes.count >= BinaryPropertyListReader.signature.count else {
            throw PropertyListError(offset: 0, reason: "file of \(bytes.count) bytes is too short for the bplist00 header")
        }
        guard BinaryPropertyListReader.hasSignature(bytes) else {
            throw PropertyListError(offset: 0, reason: "missing the bplist00 signature")
        }
        guard bytes.count >= BinaryPropertyListReader.signature.count + BinaryPropertyListTrailer.size else {
            throw PropertyListError(offset: bytes.count, reason: "file of \(bytes.count) bytes is too short for the 32-byte trailer")
        }
        trailer = try Self.readTrailer(bytes)
        objectAreaEnd = trailer.offsetTableStart
        decoded = Array(repeating: nil, count: trailer.objectCount)
        inProgress = Array(repeating: false, count: trailer.objectCount)
    }

    static func readTrailer(_ bytes: [UInt8]) throws -> BinaryPropertyListTrailer {
        let start = bytes.count - BinaryPropertyListTrailer.size
        let offsetIntegerSize = Int(bytes[start + 6])
        let objectReferenceSize = Int(bytes[start + 7])
        guard (1...8).contains(offsetIntegerSize) else {
            throw PropertyListError(offset: start + 6, reason: "offset table entry size \(offsetIntegerSize) is not 1 to 8 bytes")
        }
        guard (1...8).contains(objectReferenceSize) else {
            throw PropertyListError(offset: start + 7, reason: "object reference size \(objectReferenceSize) is not 1 to 8 bytes")
        }
        let objectCount = bigEndianInteger(bytes, at: start + 8, width: 8)
        let topObject = bigEndianInteger(bytes, at: start + 16, width: 8)
        let offsetTableStart = bigEndianInteger(bytes, at: start + 24, width: 8)
        let signatureSize = UInt64(BinaryPropertyListReader.signature.count)
        // Every object needs at least one byte, so more objects than bytes is impossible.
        guard objectCount >= 1, objectCount <= UInt64(start) else {
            throw PropertyListError(offset: start + 8, reason: "object count \(objectCount) is impossible for a file of \(bytes.count) bytes")
        }
        guard topObject < objectCount else {
            throw PropertyListError(offset: start + 16, reason: "top object \(topObject) is not below the object count \(objectCount)")
        }
        guard offsetTableStart > signatureSize, offsetTableStart <= UInt64(start) else {
            throw PropertyListError(offset: start + 24, reason: "offset table start \(offsetTableStart) lies outside the object area")
        }
        let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetIntegerSize))
        guard !overflow, tableSize <= UInt64(start) - offsetTableStart else {
            throw PropertyListError(offset: start + 8, reason: "offset table of \(objectCount) entries of \(offsetIntegerSize) bytes overruns the trailer")
        }
        return BinaryPropertyListTrailer(
            offsetIntegerSize: offsetIntegerSize, objectReferenceSize: objectReferenceSize,
            objectCount: Int(objectCount), topObject: Int(topObject), offsetTableStart: Int(offsetTableStart))
    }

    /// An unsigned big-endian integer of `width` (≤ 8) bytes; the caller has checked the bounds.
    static func bigEndianInteger(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    mutating func decodeTopObject() throws -> PropertyListValue {
        try decodeObject(trailer.topObject, depth: 0)
    }

    // MARK: Objects

    private mutating func decodeObject(_ index: Int, depth: Int) throws -> PropertyListValue {
        if let value = decoded[index] { return value }
        let offset = try objectOffset(index)
        guard depth <= maximumDepth else {
            throw PropertyListError(offset: offset, reason: "nesting deeper than \(maximumDepth) levels")
        }
        guard !inProgress[index] else {
            throw PropertyListError(offset: offset, reason: "object \(index) contains itself")
        }
        inProgress[index] = true
        let value = try decodeObject(at: offset, depth: depth)
        inProgress[index] = false
        decoded[index] = value
        return value
    }

    private func objectOffset(_ index: Int) throws -> Int {
        let entry = trailer.offsetTableStart + index * trailer.offsetIntegerSize
        let offset = Self.bigEndianInteger(bytes, at: entry, width: trailer.offsetIntegerSize)
        guard offset >= UInt64(BinaryPropertyListReader.signature.count), offset < UInt64(objectAreaEnd) else {
            throw PropertyListError(offset: entry, reason: "object \(index) has offset \(offset) outside the object area")
        }
        return Int(offset)
    }

    private mutating func decodeObject(at offset: Int, depth: Int) throws -> PropertyListValue {
        let marker = bytes[offset]
        let lowNibble = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw PropertyListError(offset: offset, reason: "unknown marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            return try decodeInteger(at: offset)
        case 0x2:
            return try decodeReal(at: offset)
        case 0x3:
            guard marker == 0x33 else {
                throw PropertyListError(offset: offset, reason: "date marker 0x\(String(marker, radix: 16)) is not 0x33")
            }
            let bits = try unsignedInteger(at: offset + 1, width: 8)
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
        case 0x4:
            let (count, start) = try countAndStart(at: offset)
            let end = try checkedEnd(start: start, count: count, elementSize: 1, what: "data", markerOffset: offset)
            return .data(Data(bytes[start..<end]))
        case 0x5:
            let (count, start) = try countAndStart(at: offset)
            let end = try checkedEnd(start: start, count: count, elementSize: 1, what: "ASCII string", markerOffset: offset)
            if let nonASCII = bytes[start..<end].firstIndex(where: { $0 >= 0x80 }) {
                throw PropertyListError(offset: nonASCII, reason: "byte 0x\(String(bytes[nonASCII], radix: 16)) in an ASCII string")
            }
            return .string(String(decoding: bytes[start..<end], as: UTF8.self))
        case 0x6:
            let (count, start) = try countAndStart(at: offset)
            let end = try checkedEnd(start: start, count: count, elementSize: 2, what: "UTF-16 string", markerOffset: offset)
            let units = stride(from: start, to: end, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            guard let string = String(validating: units, as: UTF16.self) else {
                throw PropertyListError(offset: offset, reason: "UTF-16 string with an unpaired surrogate")
            }
            return .string(string)
        case 0x8:
            let width = Int(lowNibble) + 1
            guard width <= 8 else {
                throw PropertyListError(offset: offset, reason: "UID of \(width) bytes is wider than 8")
            }
            return .uid(try unsignedInteger(at: offset + 1, width: width))
        case 0xA, 0xB, 0xC:
            // Arrays, ordered sets and sets all read as arrays.
            let references = try objectReferences(at: offset, perEntry: 1)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(references.count)
            for reference in references {
                elements.append(try decodeObject(reference, depth: depth + 1))
            }
            return .array(elements)
        case 0xD:
            let references = try objectReferences(at: offset, perEntry: 2)
            let count = references.count / 2
            var entries: [String: PropertyListValue] = [:]
            entries.reserveCapacity(count)
            for entry in 0..<count {
                let key = try decodeObject(references[entry], depth: depth + 1)
                guard case .string(let keyString) = key else {
                    throw PropertyListError(offset: offset, reason: "dictionary key \(entry) is a \(key.typeName), not a string")
                }
                // A repeated key keeps its last value.
                entries[keyString] = try decodeObject(references[count + entry], depth: depth + 1)
            }
            return .dictionary(entries)
        default:
            throw PropertyListError(offset: offset, reason: "unknown marker 0x\(String(marker, radix: 16))")
        }
    }

    private func decodeInteger(at offset: Int) throws -> PropertyListValue {
        let exponent = Int(bytes[offset] & 0x0F)
        switch exponent {
        case 0, 1, 2:
            // 1-, 2- and 4-byte integers are unsigned.
            return .integer(Int64(try unsignedInteger(at: offset + 1, width: 1 << exponent)))
        case 3:
            return .integer(Int64(bitPattern: try unsignedInteger(at: offset + 1, width: 8)))
        case 4:
            let high = try unsignedInteger(at: offset + 1, width: 8)
            let low = try unsignedInteger(at: offset + 9, width: 8)
            if high == 0 { return .integer(exactly: low) }
            // A negative 128-bit value is accepted when it fits in Int64 (sign extension of the low half).
            if high == UInt64.max, Int64(bitPattern: low) < 0 { return .integer(Int64(bitPattern: low)) }
            throw PropertyListError(offset: offset, reason: "16-byte integer does not fit in 64 bits")
        default:
            throw PropertyListError(offset: offset, reason: "integer of 2^\(exponent) bytes is not supported")
        }
    }

    private func decodeReal(at offset: Int) throws -> PropertyListValue {
        switch bytes[offset] & 0x0F {
        case 2: return .real(Double(Float(bitPattern: UInt32(try unsignedInteger(at: offset + 1, width: 4)))))
        case 3: return .real(Double(bitPattern: try unsignedInteger(at: offset + 1, width: 8)))
        default: throw PropertyListError(offset: offset, reason: "real of 2^\(bytes[offset] & 0x0F) bytes is not 4 or 8 bytes")
        }
    }

    // MARK: Counts and references

    /// The element count of a data, string or collection object, and where its payload starts.
    private func countAndStart(at offset: Int) throws -> (count: Int, start: Int) {
        let nibble = Int(bytes[offset] & 0x0F)
        if nibble != 0x0F { return (nibble, offset + 1) }
        // Counts of 15 or more follow the marker as an integer object of 1, 2, 4 or 8 bytes.
        let countOffset = offset + 1
        guard countOffset < objectAreaEnd else {
            throw PropertyListError(offset: countOffset, reason: "count runs past the object area")
        }
        let countMarker = bytes[countOffset]
        guard countMarker >> 4 == 0x1, countMarker & 0x0F <= 3 else {
            throw PropertyListError(offset: countOffset, reason: "count marker 0x\(String(countMarker, radix: 16)) is not an integer of 1 to 8 bytes")
        }
        let width = 1 << Int(countMarker & 0x0F)
        let count = try unsignedInteger(at: countOffset + 1, width: width)
        guard count <= UInt64(Int.max) else {
            throw PropertyListError(offset: countOffset, reason: "count \(count) is negative or too large")
        }
        return (Int(count), countOffset + 1 + width)
    }

    /// The end of a payload of `count` elements of `elementSize` bytes, after checking that it fits.
    private func checkedEnd(start: Int, count: Int, elementSize: Int, what: String, markerOffset: Int) throws -> Int {
        let (length, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, start <= objectAreaEnd, length <= objectAreaEnd - start else {
            throw PropertyListError(offset: markerOffset, reason: "\(what) of \(count) elements runs past the object area")
        }
        return start + length
    }

    /// The object references of an array (`perEntry` 1) or dictionary (`perEntry` 2: keys, then values).
    private func objectReferences(at offset: Int, perEntry: Int) throws -> [Int] {
        let (count, start) = try countAndStart(at: offset)
        let (total, overflow) = count.multipliedReportingOverflow(by: perEntry)
        guard !overflow else { throw PropertyListError(offset: offset, reason: "count \(count) is too large") }
        let size = trailer.objectReferenceSize
        let end = try checkedEnd(start: start, count: total, elementSize: size, what: "collection", markerOffset: offset)
        var references: [Int] = []
        references.reserveCapacity(total)
        for position in stride(from: start, to: end, by: size) {
            let reference = Self.bigEndianInteger(bytes, at: position, width: size)
            guard reference < UInt64(trailer.objectCount) else {
                throw PropertyListError(offset: position, reason: "object reference \(reference) is not below the object count \(trailer.objectCount)")
            }
            references.append(Int(reference))
        }
        return references
    }

    /// A big-endian unsigned integer inside the object area.
    private func unsignedInteger(at offset: Int, width: Int) throws -> UInt64 {
        guard offset <= objectAreaEnd, width <= objectAreaEnd - offset else {
            throw PropertyListError(offset: offset, reason: "\(width)-byte value runs past the object area")
        }
        return Self.bigEndianInteger(bytes, at: offset, width: width)
    }
}
