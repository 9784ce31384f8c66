/// A predicate format string that could not be parsed, with the UTF-8 offset of the offending character.
public struct PredicateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var format: String
    public var offset: Int
    public var reason: String

    public init(format: String, offset: Int, reason: String) {
        self.format = format
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at offset \(offset) in predicate \"\(format)\"" }
}
