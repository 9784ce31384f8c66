/// A store file that cannot be read, or contents that cannot be written: which file, where, and what is wrong.
///
/// Every refusal of the codecs is one of these, never a trap: malformed XML, a truncated or foreign binary file,
/// an unknown entity or property, a value of the wrong type, a duplicate reference, a reference to a missing object.
public struct StoreFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the file the problem was found.
    public enum Location: Sendable, Equatable {
        /// A line and column of an XML store (1-based).
        case line(Int, column: Int)
        /// A byte offset in a binary store.
        case byteOffset(Int)
        /// An object of the contents, by reference (binary stores, and contents being written).
        case object(Int64)
        /// The file as a whole.
        case file
    }

    /// The file, as the caller named it.
    public var file: String
    public var location: Location
    /// What is wrong, naming the object, entity, property or value involved.
    public var reason: String

    public init(file: String, location: Location, reason: String) {
        self.file = file
        self.location = location
        self.reason = reason
    }

    /// `FILE: line 12, column 5: REASON`, `FILE: byte 64: REASON`, `FILE: object 7: REASON` or `FILE: REASON`.
    public var description: String {
        switch location {
        case .line(let line, let column): return "\(file): line \(line), column \(column): \(reason)"
        case .byteOffset(let offset): return "\(file): byte \(offset): \(reason)"
        case .object(let reference): return "\(file): object \(reference): \(reason)"
        case .file: return "\(file): \(reason)"
        }
    }
}
