import Foundation

/// The property-list formats this module reads and writes.
public enum PropertyListFormat: Sendable, Hashable, CaseIterable {
    /// Apple's binary format, `bplist00`.
    case binary
    /// Apple's XML format, `<plist version="1.0">`.
    case xml
}

/// Entry points that pick the format: sniffed from the bytes when reading, chosen by the caller when writing.
public enum PropertyList {
    /// The format of `bytes`: binary when they start with `bplist00`, XML when their first non-blank character
    /// (after an optional UTF-8 byte-order mark) is `<`. Throws for anything else, such as OpenStep text plists.
    public static func format(of bytes: some Collection<UInt8>) throws -> PropertyListFormat {
        if BinaryPropertyListReader.hasSignature(bytes) { return .binary }
        var remaining = bytes[...]
        if remaining.starts(with: [0xEF, 0xBB, 0xBF]) { remaining = remaining.dropFirst(3) }
        let firstSignificant = remaining.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if firstSignificant == UInt8(ascii: "<") { return .xml }
        if bytes.starts(with: Array("bplist".utf8)) {
            throw PropertyListError(offset: 6, reason: "binary property list version \"\(String(decoding: bytes.dropFirst(6).prefix(2), as: UTF8.self))\" is not 00")
        }
        throw PropertyListError(offset: 0, reason: "neither a binary (bplist00) nor an XML property list")
    }

    /// Reads a binary or XML property list, whichever `bytes` hold.
    public static func read(_ bytes: some Collection<UInt8>) throws -> PropertyListValue {
        switch try format(of: bytes) {
        case .binary: return try BinaryPropertyListReader().read(Array(bytes))
        case .xml: return try XMLPropertyListReader().read(Data(bytes))
        }
    }

    /// Encodes `value` in `format`. Only XML can fail (see `XMLPropertyListWriter`).
    public static func write(_ value: PropertyListValue, format: PropertyListFormat) throws -> Data {
        switch format {
        case .binary: return BinaryPropertyListWriter().write(value)
        case .xml: return try XMLPropertyListWriter().write(value)
        }
    }
}
