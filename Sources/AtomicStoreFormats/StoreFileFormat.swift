import Foundation

/// The atomic store formats, and which one a file's first bytes are (for `--type` left out).
public enum StoreFileFormat: String, Sendable, CaseIterable {
    /// `NSXMLStoreType`: an XML document whose root element is `<database>`.
    case xml = "XML"
    /// `NSBinaryStoreType`: a file starting with `CoreData`.
    case binary = "Binary"

    /// The format of a file starting with `prefix` (the first few kilobytes are enough), or nil for neither: the
    /// binary magic, or XML (after an optional byte-order mark, the prolog, a DOCTYPE and comments) whose first
    /// element is `<database>`.
    public static func detect(_ prefix: some Collection<UInt8>) -> StoreFileFormat? {
        let bytes = Array(prefix.prefix(4096))
        if bytes.starts(with: BinaryStoreHeader.magic) { return .binary }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func starts(_ text: String) -> Bool { bytes[index...].starts(with: Array(text.utf8)) }
        while index < bytes.count {
            if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                index += 1
            } else if starts("<?") || starts("<!") {
                // Skip the prolog, a DOCTYPE (external only: the store's has no internal subset) or a comment.
                let terminator = starts("<!--") ? Array("-->".utf8) : [UInt8(ascii: ">")]
                guard let end = bytes[index...].firstRange(of: terminator) else { return nil }
                index = end.upperBound
            } else {
                return starts("<database") && bytes.count > index + 9
                    && [UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "/"), 0x0A, 0x09, 0x0D].contains(bytes[index + 9]) ? .xml : nil
            }
        }
        return nil
    }
}
