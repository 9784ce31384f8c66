import Foundation

/// The checks of `FlatKeyedArchive(bytes:)`: every object as `BinaryPropertyListDecoder` checks the objects it decodes,
/// then the shallow shape, then the four keys `KeyedArchive(plist:)` requires. The messages are short: a document that
/// fails here is read again by `KeyedArchive(bytes:)`, which says precisely what is wrong.
extension FlatKeyedArchive {
    /// The tallest nesting accepted: the top dictionary, `$objects`, an object, an inline collection, plain values.
    static let maximumHeight = 4

    static func checkedTrailer(_ bytes: [UInt8]) throws -> BinaryPropertyListTrailer {
        guard BinaryPropertyListReader.hasSignature(bytes),
              bytes.count >= BinaryPropertyListReader.signature.count + BinaryPropertyListTrailer.size else {
            throw PropertyListError(offset: 0, reason: "not a binary property list")
        }
        return try BinaryPropertyListDecoder.readTrailer(bytes)
    }

    /// Every entry of the offset table, each inside the object area.
    static func checkedOffsets(_ bytes: [UInt8], trailer: BinaryPropertyListTrailer) throws -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(trailer.objectCount)
        let width = trailer.offsetIntegerSize
        var entry = trailer.offsetTableStart
        for _ in 0..<trailer.objectCount {
            var offset: UInt64 = 0
            for index in entry..<(entry + width) { offset = offset << 8 | UInt64(bytes[index]) }
            guard offset >= UInt64(BinaryPropertyListReader.signature.count), offset < UInt64(trailer.offsetTableStart) else {
                throw PropertyListError(offset: entry, reason: "object offset outside the object area")
            }
            offsets.append(Int(offset))
            entry += width
        }
        return offsets
    }

    /// The object at `offset` is well formed, its payload and references inside the object area.
    static func checkObject(at offset: Int, in bytes: [UInt8], trailer: BinaryPropertyListTrailer) throws {
        let end = trailer.offsetTableStart
        func failure() -> PropertyListError { PropertyListError(offset: offset, reason: "malformed object") }
        func fits(_ start: Int, _ length: Int) -> Bool { start <= end && length <= end - start }
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x0:
            guard marker == 0x00 || marker == 0x08 || marker == 0x09 else { throw failure() }
        case 0x1:
            let exponent = Int(marker & 0x0F)
            guard exponent <= 4, fits(offset + 1, 1 << exponent) else { throw failure() }
            if exponent == 4 {
                var high: UInt64 = 0
                for index in (offset + 1)..<(offset + 9) { high = high << 8 | UInt64(bytes[index]) }
                // A 16-byte value fits when its high half is zero, or all ones (sign extension) with the top bit set below.
                guard high == 0 || (high == UInt64.max && bytes[offset + 9] >= 0x80) else { throw failure() }
            }
        case 0x2:
            let width = marker & 0x0F == 2 ? 4 : 8
            guard marker & 0x0F == 2 || marker & 0x0F == 3, fits(offset + 1, width) else { throw failure() }
        case 0x3:
            guard marker == 0x33, fits(offset + 1, 8) else { throw failure() }
        case 0x4, 0x5, 0x6:
            let (count, start) = try checkedCount(at: offset, in: bytes, end: end)
            let unit = marker >> 4 == 0x6 ? 2 : 1
            let (length, overflow) = count.multipliedReportingOverflow(by: unit)
            guard !overflow, fits(start, length) else { throw failure() }
            if marker >> 4 == 0x5 {
                for index in start..<(start + length) where bytes[index] >= 0x80 { throw failure() }
            } else if marker >> 4 == 0x6 {
                guard isValidUTF16(bytes, from: start, count: count) else { throw failure() }
            }
        case 0x8:
            let width = Int(marker & 0x0F) + 1
            guard width <= 8, fits(offset + 1, width) else { throw failure() }
        case 0xA, 0xB, 0xC, 0xD:
            let (count, start) = try checkedCount(at: offset, in: bytes, end: end)
            let perEntry = marker >> 4 == 0xD ? 2 : 1
            let size = trailer.objectReferenceSize
            let (total, overflow) = count.multipliedReportingOverflow(by: perEntry * size)
            guard !overflow, fits(start, total) else { throw failure() }
            for position in stride(from: start, to: start + total, by: size) {
                var reference: UInt64 = 0
                for index in position..<(position + size) { reference = reference << 8 | UInt64(bytes[index]) }
                guard reference < UInt64(trailer.objectCount) else { throw failure() }
            }
        default:
            throw failure()
        }
    }

    /// The count of a data, string or collection object and where its payload starts, with the count's own bytes
    /// checked.
    private static func checkedCount(at offset: Int, in bytes: [UInt8], end: Int) throws -> (count: Int, start: Int) {
        let nibble = Int(bytes[offset] & 0x0F)
        if nibble != 0x0F { return (nibble, offset + 1) }
        let countOffset = offset + 1
        guard countOffset < end, bytes[countOffset] >> 4 == 0x1, bytes[countOffset] & 0x0F <= 3 else {
            throw PropertyListError(offset: countOffset, reason: "malformed count")
        }
        let width = 1 << Int(bytes[countOffset] & 0x0F)
        guard countOffset + 1 <= end, width <= end - (countOffset + 1) else {
            throw PropertyListError(offset: countOffset, reason: "malformed count")
        }
        var count: UInt64 = 0
        for index in (countOffset + 1)..<(countOffset + 1 + width) { count = count << 8 | UInt64(bytes[index]) }
        guard count <= UInt64(Int.max) else { throw PropertyListError(offset: countOffset, reason: "malformed count") }
        return (Int(count), countOffset + 1 + width)
    }

    /// Whether `count` big-endian UTF-16 units from `start` pair every surrogate.
    private static func isValidUTF16(_ bytes: [UInt8], from start: Int, count: Int) -> Bool {
        var index = 0
        while index < count {
            let unit = UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1])
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < count else { return false }
                let next = UInt16(bytes[start + 2 * index + 2]) << 8 | UInt16(bytes[start + 2 * index + 3])
                guard (0xDC00...0xDFFF).contains(next) else { return false }
                index += 2
            } else {
                guard !(0xDC00...0xDFFF).contains(unit) else { return false }
                index += 1
            }
        }
        return true
    }

    /// The top object is a dictionary, and nothing reachable from it nests deeper than `maximumHeight`: no cycle, no
    /// deep tree, so every object reachable decodes with `BinaryPropertyListReader` as it reads here. Dictionary keys
    /// are strings.
    func checkShape() throws {
        guard case .dictionary = value(ofObject: trailer.topObject) else {
            throw PropertyListError(reason: "the top object is not a dictionary")
        }
        // Per object: -1 not seen, -2 being measured, else its height.
        var heights = [Int8](repeating: -1, count: trailer.objectCount)
        let height = try measure(trailer.topObject, depth: 0, heights: &heights)
        guard height <= Self.maximumHeight else { throw PropertyListError(reason: "nested too deep") }
    }

    private func measure(_ object: Int, depth: Int, heights: inout [Int8]) throws -> Int {
        let known = heights[object]
        if known >= 0 { return Int(known) }
        guard known == -1 else { throw PropertyListError(reason: "object \(object) contains itself") }
        let elements: Elements
        switch value(ofObject: object) {
        case .array(let collection): elements = collection
        case .dictionary(let collection):
            for index in 0..<collection.count {
                guard case .string = value(ofObject: key(collection, at: index)) else {
                    throw PropertyListError(reason: "a dictionary key is not a string")
                }
            }
            elements = Elements(start: collection.start, count: 2 * collection.count)
        default:
            heights[object] = 0
            return 0
        }
        guard depth < Self.maximumHeight else { throw PropertyListError(reason: "nested too deep") }
        heights[object] = -2
        var height = 0
        for index in 0..<elements.count {
            height = max(height, try measure(element(elements, at: index), depth: depth + 1, heights: &heights) + 1)
        }
        heights[object] = Int8(height)
        return height
    }

    /// `$objects` (each entry's object number), `$top`, `$archiver` and `$version`, as `KeyedArchive(plist:)` requires
    /// them (a repeated key keeps its last value).
    func readArchiveKeys() throws -> (entries: [Int], top: [String: Int], archiverName: String, version: Int64) {
        guard case .dictionary(let root) = value(ofObject: trailer.topObject) else {
            throw PropertyListError(reason: "the top object is not a dictionary")
        }
        var fields: [String: Int] = [:]
        for index in 0..<root.count { fields[string(key(root, at: index))] = value(root, at: index) }
        guard let objectsField = fields["$objects"], case .array(let objects) = value(ofObject: objectsField) else {
            throw PropertyListError(reason: "keyed archive has no $objects array")
        }
        guard let topField = fields["$top"], case .dictionary(let topEntries) = value(ofObject: topField) else {
            throw PropertyListError(reason: "keyed archive has no $top dictionary")
        }
        guard let archiverField = fields["$archiver"], case .string(let archiver) = value(ofObject: archiverField) else {
            throw PropertyListError(reason: "keyed archive has no $archiver name")
        }
        guard let versionField = fields["$version"], case .integer(let version) = value(ofObject: versionField) else {
            throw PropertyListError(reason: "keyed archive has no integer $version")
        }
        var top: [String: Int] = [:]
        for index in 0..<topEntries.count { top[string(key(topEntries, at: index))] = value(topEntries, at: index) }
        return ((0..<objects.count).map { element(objects, at: $0) }, top, string(archiver), version)
    }
}
