import Foundation

/// The binary store's 64-byte header (store format reference §14b), all integers big-endian: `CoreData`, the
/// format word 1, the database version 0x08040800, the metadata archive's offset and length, the map archive's
/// offset and length, the primary-key mark, and a zero word.
public struct BinaryStoreHeader: Sendable, Equatable {
    public static let size = 64
    public static let magic = Array("CoreData".utf8)
    /// The word at byte 8 in every file seen.
    public static let formatWord: UInt32 = 1
    /// The word at byte 12: the number the XML store writes in `<version>`.
    public static let databaseVersion: UInt32 = 0x0804_0800

    public var metadataRange: Range<Int>
    public var mapRange: Range<Int>
    /// The primary-key high-water mark (not necessarily the largest key: Apple's files run ahead of it).
    public var primaryKeyMark: Int64
    /// The database version word as read (written as `databaseVersion`).
    public var version: UInt32

    public init(metadataRange: Range<Int>, mapRange: Range<Int>, primaryKeyMark: Int64, version: UInt32 = databaseVersion) {
        self.metadataRange = metadataRange
        self.mapRange = mapRange
        self.primaryKeyMark = primaryKeyMark
        self.version = version
    }

    /// Reads and checks the header of `bytes`: the magic, the format word, and archive ranges inside the file.
    public init(reading bytes: [UInt8], file: String) throws(StoreFileError) {
        func failure(_ offset: Int, _ reason: String) -> StoreFileError {
            StoreFileError(file: file, location: .byteOffset(offset), reason: reason)
        }
        guard bytes.count >= Self.size else {
            throw failure(bytes.count, "the file has \(bytes.count) bytes; a binary store starts with a 64-byte header (truncated?)")
        }
        guard Array(bytes[0..<8]) == Self.magic else {
            throw failure(0, "the file does not start with \"CoreData\": not a binary store")
        }
        let format = UInt32(truncatingIfNeeded: Self.word(bytes, at: 8, width: 4))
        guard format == Self.formatWord else {
            throw failure(8, "format word \(format), not 1: a binary store format this reader does not know")
        }
        version = UInt32(truncatingIfNeeded: Self.word(bytes, at: 12, width: 4))
        func range(at offset: Int, name: String) throws(StoreFileError) -> Range<Int> {
            let start = Self.word(bytes, at: offset, width: 8), length = Self.word(bytes, at: offset + 8, width: 8)
            let (end, overflow) = start.addingReportingOverflow(length)
            guard start >= UInt64(Self.size), !overflow, end <= UInt64(bytes.count) else {
                throw failure(offset, "the \(name) archive at bytes \(start)..<\(end) lies outside the \(bytes.count)-byte "
                              + "file (it must start after the header and end inside the file; truncated?)")
            }
            return Int(start)..<Int(end)
        }
        metadataRange = try range(at: 16, name: "metadata")
        mapRange = try range(at: 32, name: "map")
        guard !metadataRange.overlaps(mapRange) else {
            throw failure(16, "the metadata and map archives overlap")
        }
        let mark = Self.word(bytes, at: 48, width: 8)
        guard let signed = Int64(exactly: mark) else {
            throw failure(48, "primary-key mark \(mark) is beyond the largest key")
        }
        primaryKeyMark = signed
    }

    /// The 64 header bytes.
    public var bytes: [UInt8] {
        var output = Self.magic
        func append(_ value: UInt64, width: Int) {
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        append(UInt64(Self.formatWord), width: 4)
        append(UInt64(version), width: 4)
        append(UInt64(metadataRange.lowerBound), width: 8)
        append(UInt64(metadataRange.count), width: 8)
        append(UInt64(mapRange.lowerBound), width: 8)
        append(UInt64(mapRange.count), width: 8)
        append(UInt64(primaryKeyMark), width: 8)
        append(0, width: 8)
        return output
    }

    private static func word(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
