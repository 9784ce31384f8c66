/// A file that is not a readable Core Data SQLite store, naming the file and what was wrong with it.
public struct StoreFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
