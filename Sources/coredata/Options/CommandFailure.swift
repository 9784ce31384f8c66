import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import StoreAccess
import TerminalText

/// A failure of a command, with the message printed to stderr: exit status 1 for a runtime failure, 2 when the
/// user's input was malformed (a predicate that does not parse).
struct CommandFailure: Error {
    var message: String
    var exitStatus: Int32

    init(_ message: String, exitStatus: Int32 = ExitStatus.runtimeFailure) {
        self.message = TerminalSanitizer.sanitize(message, layout: .multiLine)
        self.exitStatus = exitStatus
    }

    /// Wraps any library error in a failure whose message names what was wrong and where.
    init(wrapping error: any Error) {
        let usage = (error as? StoreAccessError)?.isUsageError == true || (error as? CommandFailure)?.exitStatus == ExitStatus.usageError
        self.init(Self.describe(error), exitStatus: usage ? ExitStatus.usageError : ExitStatus.runtimeFailure)
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as CommandFailure: return failure.message
        case let error as CustomStringConvertible: return TerminalSanitizer.sanitize(error.description, layout: .multiLine)
        default: return TerminalSanitizer.sanitize(String(describing: error), layout: .multiLine)
        }
    }
}
