import Foundation

/// Asks before a command changes more than one object, unless `--yes` was given. Without a terminal to ask on,
/// it refuses and says to pass `--yes`.
enum ChangeConfirmation {
    static func confirm(_ count: Int, _ action: String, yes: Bool) throws {
        guard count > 1, !yes else { return }
        guard isatty(STDIN_FILENO) != 0 else {
            throw CommandFailure("\(action) \(count) objects needs confirmation; pass --yes to confirm without a terminal")
        }
        FileHandle.standardError.write(Data("\(action) \(count) objects? [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw CommandFailure("nothing changed") }
    }
}
