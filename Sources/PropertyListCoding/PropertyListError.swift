/// A property list that could not be read or written, with the byte offset where reading failed.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int?
    public var reason: String

    public init(offset: Int? = nil, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        if let offset { return "malformed property list at byte \(offset): \(reason)" }
        return "malformed property list: \(reason)"
    }
}
