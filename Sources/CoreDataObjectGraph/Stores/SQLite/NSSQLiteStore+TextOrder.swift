import Foundation
import CoreDataSQLiteFormat
import SQLiteDatabase
import Synchronization

extension NSSQLiteStore {
    /// `query` with each `compare:` text sort on an indexed column switched to SQLite's `BINARY` collation where the
    /// column's texts are all ones on which the two orders agree (``BinaryTextOrder``): the same rows in the same
    /// order, read through the column's index instead of sorted.
    ///
    /// Deciding reads the whole index once; the answer is kept until this connection writes or another one commits
    /// (`PRAGMA data_version`). A column without an index keeps the `compare:` collation: it decides ASCII text in C
    /// at about `BINARY`'s speed, so reading the column first would only add a pass. Only batched fetches ask: a
    /// browser sorts the same column again and again, where an application's one-off sorted fetch would pay the
    /// extra read every time it follows a save.
    func sortingTextBinaryWhereSafe(_ query: FetchStatement) throws -> FetchStatement {
        let candidates = query.compareSortedColumns
        guard !candidates.isEmpty else { return query }
        let version: BinaryTextOrderCache.Version
        do {
            version = .init(dataVersion: try connection.dataVersion, totalChanges: connection.totalChanges)
        } catch {
            throw CoreDataError(.sqlite, "\(url?.path ?? "store"): \(error.description)", underlyingError: error)
        }
        var binary: Set<Int> = []
        for (term, column) in candidates {
            let key = query.table + "." + column
            let safe: Bool
            if let known = binaryTextOrder.answer(for: key, at: version) {
                safe = known
            } else {
                safe = try run(BinaryTextOrder.checkSQL(table: query.table, column: column), []) { statement in
                    var answer = false
                    try statement.forEachRow { row in answer = row.int64(at: 0) == 1 }
                    return answer
                }
                binaryTextOrder.keep(safe, for: key, at: version)
            }
            if safe { binary.insert(term) }
        }
        return binary.isEmpty ? query : query.sortingBinary(terms: binary)
    }
}

/// Which columns' texts the store may sort by their bytes, each answer valid for one state of the database.
final class BinaryTextOrderCache: Sendable {
    /// A state of the database as one connection sees it: other connections' commits move `dataVersion`, its own
    /// writes `totalChanges`.
    struct Version: Equatable {
        var dataVersion: Int64
        var totalChanges: Int
    }

    private let answers = Mutex<[String: (version: Version, safe: Bool)]>([:])

    func answer(for key: String, at version: Version) -> Bool? {
        answers.withLock { answers in
            guard let entry = answers[key], entry.version == version else { return nil }
            return entry.safe
        }
    }

    func keep(_ safe: Bool, for key: String, at version: Version) {
        answers.withLock { $0[key] = (version, safe) }
    }

    func removeAll() {
        answers.withLock { $0.removeAll() }
    }
}
