import Foundation
import TerminalText

/// One-line notes about a store that a command prints to standard error while its output goes on to standard
/// output: opening recovered an interrupted save, for example.
enum StoreNotes {
    static func report(_ note: String?) {
        guard let note, !Verbosity.isQuiet else { return }
        FileHandle.standardError.write(Data("coredata: note: \(TerminalSanitizer.sanitize(note))\n".utf8))
    }
}
