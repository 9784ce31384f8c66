import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import TerminalText

/// A runtime failure of a command, with the one-line message printed to stderr (exit status 1).
struct CommandFailure: Error {
    var message: String

    init(_ message: String) {
        self.message = TerminalSanitizer.sanitize(message, layout: .multiLine)
    }

    /// Wraps any library error in a failure whose message names what was wrong and where.
    init(wrapping error: any Error) {
        self.init(Self.describe(error))
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as CommandFailure: return failure.message
        case let error as CustomStringConvertible: return TerminalSanitizer.sanitize(error.description, layout: .multiLine)
        default: return TerminalSanitizer.sanitize(String(describing: error), layout: .multiLine)
        }
    }
}
