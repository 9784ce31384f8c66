import Foundation

/// Reads Apple's binary property lists (`bplist00`), including the UIDs of keyed archives.
///
/// The reader treats its input as hostile: every read is bounds-checked, objects must lie between the header and
/// the offset table, counts are checked against the bytes that remain, an object that contains itself is rejected,
/// and nesting is limited to `maximumDepth`. Each object is decoded once and shared, so input that references one
/// object many times costs time linear in the file size. Failures throw `PropertyListError` with the byte offset.
public struct BinaryPropertyListReader: Sendable {
    /// The nesting depth allowed by default; deeper documents are rejected rather than risking the stack.
    public static let defaultMaximumDepth = 512

    /// The deepest nesting of arrays and dictionaries accepted.
    public var maximumDepth: Int

    /// A reader that rejects documents nested deeper than `maximumDepth`.
    public init(maximumDepth: Int = BinaryPropertyListReader.defaultMaximumDepth) {
        self.maximumDepth = maximumDepth
    }

    /// Whether `bytes` start with the `bplist00` signature.
    public static func hasSignature(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

    /// The eight bytes every binary property list starts with.
    static let signature: [UInt8] = Array("bplist00".utf8)

    /// Decodes the top object of the binary property list in `data`.
    public func read(_ data: Data) throws -> PropertyListValue {
        try read([UInt8](data))
    }

    /// Decodes the top object of the binary property list in `bytes`.
    public func read(_ bytes: [UInt8]) throws -> PropertyListValue {
        var decoder = try BinaryPropertyListDecoder(bytes: bytes, maximumDepth: maximumDepth)
        return try decoder.decodeTopObject()
    }
}
