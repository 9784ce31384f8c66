import TerminalText

/// Why a store, an entity, a key path or a value typed by the user cannot be used: one message that names what
/// was wrong and where, already sanitised for the terminal.
package struct StoreAccessError: Error, CustomStringConvertible, Equatable {
    package var message: String
    /// The store can be read but must not be written (it records persistent history, for example): a browser
    /// asked to edit it opens it read-only instead and says why.
    package var refusesWriting: Bool
    /// The user typed something malformed (a predicate that does not parse), not a problem with the store: the
    /// command line reports it as a usage error.
    package var isUsageError: Bool

    package init(_ message: String, refusesWriting: Bool = false, isUsageError: Bool = false) {
        self.message = TerminalSanitizer.sanitize(message, layout: .multiLine)
        self.refusesWriting = refusesWriting
        self.isUsageError = isUsageError
    }

    package var description: String { message }
}
