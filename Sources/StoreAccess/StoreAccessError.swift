import TerminalText

/// Why a store, an entity, a key path or a value typed by the user cannot be used: one message that names what
/// was wrong and where, already sanitised for the terminal.
package struct StoreAccessError: Error, CustomStringConvertible, Equatable {
    package var message: String
    /// The store can be read but must not be written (it records persistent history, for example): a browser
    /// asked to edit it opens it read-only instead and says why.
    package var refusesWriting: Bool

    package init(_ message: String, refusesWriting: Bool = false) {
        self.message = TerminalSanitizer.sanitize(message, layout: .multiLine)
        self.refusesWriting = refusesWriting
    }

    package var description: String { message }
}
