import Foundation

/// An `NSKeyedArchiver` archive in a binary property list, read in place: no `PropertyListValue` tree is built, so a
/// reader that wants a few fields of many objects (the binary store's map of 100,000 nodes) pays for those fields
/// only, and for no dictionary, array or string it does not look at.
///
/// Opening checks the whole document the way `BinaryPropertyListReader` does (every object of the offset table, not
/// only the reachable ones) and accepts only the shallow shape archivers write: the top dictionary, `$objects`,
/// objects, and one level of inline collections holding plain values. So a document this type opens is one that
/// `KeyedArchive(bytes:)` opens too, with the same values (`plainValue(of:)` says how each one reads there). Anything
/// else throws, with no promise about the message: callers fall back to `KeyedArchive(bytes:)`, whose errors name
/// the byte and the problem, and which reads the shapes declined here.
public struct FlatKeyedArchive: Sendable {
    /// One property-list object, read in place. Strings and data are read on demand (`string(_:)`, `data(_:)`);
    /// collections give their element count and their elements' object numbers (`element(_:at:)`).
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        /// An integer above `Int64.max`.
        case unsignedInteger(UInt64)
        case real(Double)
        /// Seconds since 2001-01-01 (`Date(timeIntervalSinceReferenceDate:)`).
        case date(Double)
        case uid(UInt64)
        /// A string: the object number to pass to `string(_:)`.
        case string(Int)
        /// Bytes: the object number to pass to `data(_:)`.
        case data(Int)
        /// An array, ordered set or set: its elements' object numbers.
        case array(Elements)
        /// A dictionary: keys at positions `0..<count`, values at `count..<2 * count` (`key(_:at:)`, `value(_:at:)`).
        case dictionary(Elements)
    }

    /// Where a collection's object references are: `count` entries (pairs for a dictionary).
    public struct Elements: Sendable, Equatable {
        /// The byte of the first reference.
        let start: Int
        /// The number of elements (of keys, for a dictionary).
        public let count: Int
    }

    let bytes: [UInt8]
    let trailer: BinaryPropertyListTrailer
    /// The byte offset of every object, from the offset table.
    let offsets: [Int]
    /// The object number of each `$objects` entry: a UID's target.
    let entries: [Int]
    /// `$top`: key → object number of its value (usually a UID).
    public let top: [String: Int]
    /// `$archiver`.
    public let archiverName: String
    /// `$version`.
    public let version: Int64

    /// Opens the keyed archive in the binary property list `bytes`. Throws when the bytes are not a well-formed binary
    /// property list or not a keyed archive of the shallow shape described above; read such bytes with
    /// `KeyedArchive(bytes:)` for the precise error, or for the values of a deeper shape.
    public init(bytes: [UInt8]) throws {
        self.bytes = bytes
        trailer = try Self.checkedTrailer(bytes)
        offsets = try Self.checkedOffsets(bytes, trailer: trailer)
        for object in 0..<trailer.objectCount { try Self.checkObject(at: offsets[object], in: bytes, trailer: trailer) }
        let draft = FlatKeyedArchive(bytes: bytes, trailer: trailer, offsets: offsets)
        try draft.checkShape()
        let keys = try draft.readArchiveKeys()
        entries = keys.entries
        top = keys.top
        archiverName = keys.archiverName
        version = keys.version
    }

    /// An unfinished archive, for the checks of `init(bytes:)` that read objects.
    private init(bytes: [UInt8], trailer: BinaryPropertyListTrailer, offsets: [Int]) {
        self.bytes = bytes
        self.trailer = trailer
        self.offsets = offsets
        entries = []
        top = [:]
        archiverName = ""
        version = 0
    }

    /// The number of `$objects` entries; UIDs below it are valid.
    public var count: Int { entries.count }

    /// The number of property-list objects in the document (object numbers are below it): the size for tables kept
    /// per object number.
    public var objectCount: Int { trailer.objectCount }

    /// The `$objects` entry a UID points at, or nil when the UID is outside `$objects`.
    public func entry(_ uid: UInt64) -> Value? {
        guard uid < UInt64(entries.count) else { return nil }
        return value(ofObject: entries[Int(uid)])
    }

    /// The object number of the `$objects` entry `uid` (which must be below `count`).
    public func entryObject(_ uid: Int) -> Int { entries[uid] }

    /// The value of `$top[key]`, or nil when `$top` has no such key.
    public func topValue(forKey key: String) -> Value? {
        top[key].map(value(ofObject:))
    }

    /// Object `object` (a number below `objectCount`, as collections and `Value` give them).
    public func value(ofObject object: Int) -> Value {
        let offset = offsets[object]
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: return .null
            }
        case 0x1:
            let exponent = Int(marker & 0x0F)
            switch exponent {
            case 0, 1, 2: return .integer(Int64(word(at: offset + 1, width: 1 << exponent)))
            case 3: return .integer(Int64(bitPattern: word(at: offset + 1, width: 8)))
            default:
                // Checked when opened: the high half is 0, or all ones with a negative low half.
                let high = word(at: offset + 1, width: 8), low = word(at: offset + 9, width: 8)
                if high == 0, Int64(exactly: low) == nil { return .unsignedInteger(low) }
                return .integer(Int64(bitPattern: low))
            }
        case 0x2:
            if marker & 0x0F == 2 { return .real(Double(Float(bitPattern: UInt32(word(at: offset + 1, width: 4))))) }
            return .real(Double(bitPattern: word(at: offset + 1, width: 8)))
        case 0x3:
            return .date(Double(bitPattern: word(at: offset + 1, width: 8)))
        case 0x4:
            return .data(object)
        case 0x5, 0x6:
            return .string(object)
        case 0x8:
            return .uid(word(at: offset + 1, width: Int(marker & 0x0F) + 1))
        case 0xD:
            let (count, start) = countAndStart(at: offset)
            return .dictionary(Elements(start: start, count: count))
        default:
            let (count, start) = countAndStart(at: offset)
            return .array(Elements(start: start, count: count))
        }
    }

    /// The object number of element `index` of an array.
    public func element(_ elements: Elements, at index: Int) -> Int {
        Int(word(at: elements.start + index * trailer.objectReferenceSize, width: trailer.objectReferenceSize))
    }

    /// The object number of key `index` of a dictionary.
    public func key(_ dictionary: Elements, at index: Int) -> Int { element(dictionary, at: index) }

    /// The object number of value `index` of a dictionary.
    public func value(_ dictionary: Elements, at index: Int) -> Int { element(dictionary, at: dictionary.count + index) }

    /// The string object `object` (a `.string` value's number).
    public func string(_ object: Int) -> String {
        let offset = offsets[object]
        let (count, start) = countAndStart(at: offset)
        if bytes[offset] >> 4 == 0x5 { return String(decoding: bytes[start..<(start + count)], as: UTF8.self) }
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for position in stride(from: start, to: start + 2 * count, by: 2) {
            units.append(UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1]))
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The bytes of data object `object` (a `.data` value's number).
    public func data(_ object: Int) -> Data {
        let (count, start) = countAndStart(at: offsets[object])
        return Data(bytes[start..<(start + count)])
    }

    /// The value as `BinaryPropertyListReader` reads it, collections included: what `KeyedArchive` holds for it.
    public func plainValue(ofObject object: Int) -> PropertyListValue {
        switch value(ofObject: object) {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uid(let uid): return .uid(uid)
        case .string(let string): return .string(self.string(string))
        case .data(let data): return .data(self.data(data))
        case .array(let elements):
            return .array((0..<elements.count).map { plainValue(ofObject: element(elements, at: $0)) })
        case .dictionary(let elements):
            var entries: [String: PropertyListValue] = [:]
            for index in 0..<elements.count {
                entries[string(key(elements, at: index))] = plainValue(ofObject: value(elements, at: index))
            }
            return .dictionary(entries)
        }
    }

    // MARK: Reading bytes (every bound was checked when the archive was opened)

    func word(at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// The element count of a data, string or collection object, and where its payload starts.
    func countAndStart(at offset: Int) -> (count: Int, start: Int) {
        let nibble = Int(bytes[offset] & 0x0F)
        if nibble != 0x0F { return (nibble, offset + 1) }
        let width = 1 << Int(bytes[offset + 1] & 0x0F)
        return (Int(word(at: offset + 2, width: width)), offset + 2 + width)
    }
}
