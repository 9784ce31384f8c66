import Foundation
import Predicates
import CoreDataObjectGraph
import StoreAccess

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

    /// Counts the objects `predicate` selects on a read-only session and asks there, before the command opens the
    /// store for writing: a read-write open alone changes files (it checkpoints a WAL into the main file and deletes
    /// a stale `-wal`), and a refused change must leave every byte as it was. Returns how many objects were agreed to.
    static func confirmBeforeWriting(_ storeOptions: StoreOptions, entity: String, predicate: Predicates.NSPredicate?, _ action: String,
                                     yes: Bool) throws -> Int {
        guard !yes else { return Int.max }
        let session = try storeOptions.open()
        let request = try session.objectRequest(entityName: entity, parsedPredicate: predicate)
        let count = try session.context.performAndWait { try session.context.count(for: request) }
        try confirm(count, action, yes: false)
        return Swift.max(count, 1)
    }
}
