import TerminalText

/// Why a store, an entity, a key path or a value typed by the user cannot be used: one message that names what
/// was wrong and where, already sanitised for the terminal.
public struct StoreAccessError: Error, CustomStringConvertible, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = TerminalSanitizer.sanitize(message, layout: .multiLine)
    }

    public var description: String { message }
}
