/// A property list that could not be read or written, with where reading failed: the byte offset in a binary
/// property list, the line in an XML one.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset of the failure in binary input, when known.
    public var offset: Int?
    /// The 1-based line of the failure in XML input, when known.
    public var line: Int?
    /// What is wrong, naming the element or object involved.
    public var reason: String

    /// An error at byte `offset` of binary input (or with no position).
    public init(offset: Int? = nil, reason: String) {
        self.offset = offset
        self.line = nil
        self.reason = reason
    }

    /// An error at `line` of XML input.
    public init(line: Int, reason: String) {
        self.offset = nil
        self.line = line
        self.reason = reason
    }

    /// A one-line message with the position first.
    public var description: String {
        if let offset { return "malformed property list at byte \(offset): \(reason)" }
        if let line { return "malformed property list at line \(line): \(reason)" }
        return "malformed property list: \(reason)"
    }
}
