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

    static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as CommandFailure: return failure.message
        case let error as CustomStringConvertible: return TerminalSanitizer.sanitize(error.description, layout: .multiLine)
        default: return TerminalSanitizer.sanitize(String(describing: error), layout: .multiLine)
        }
    }
}
