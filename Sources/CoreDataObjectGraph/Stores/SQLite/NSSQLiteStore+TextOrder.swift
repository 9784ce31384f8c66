import Foundation
import CoreDataModel
import CoreDataSQLiteFormat
import SQLiteDatabase
import Synchronization

extension NSSQLiteStore {
    /// `query` with each `compare:` text sort switched to SQLite's `BINARY` collation where the column's texts are
    /// all ones on which the two orders agree (``BinaryTextOrder``): the same rows in the same order, sorted by SQLite
    /// itself and through the column's index if it has one. Even without an index this pays: SQLite compares
    /// `BINARY` keys inline, while any other collation, even one decided in C, takes its general record comparison.
    ///
    /// Deciding reads the whole column once (in C); the answer is kept until this connection writes or another one
    /// commits (`PRAGMA data_version`). Only batched fetches ask: a browser sorts the same column again and again,
    /// where an application's one-off sorted fetch would pay the extra read every time it follows a save.
    func sortingTextBinaryWhereSafe(_ query: FetchStatement) throws -> FetchStatement {
        let candidates = query.compareSortedColumns
        guard !candidates.isEmpty else { return query }
        let version = try textOrderVersion()
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

/// The checks a batched sort of an entity's text attributes would have to run first, for a caller that runs them
/// ahead of time on a connection of its own (``NSSQLiteStore/undecidedTextOrderChecks(for:)``).
package struct TextOrderChecks: Sendable {
    /// The state of the database the answers will describe.
    package var version: BinaryTextOrderCache.Version
    package var table: String
    /// One query per column (``BinaryTextOrder/checkSQL(table:column:)``), answering 1 when its texts may be sorted
    /// by their bytes.
    package var queries: [(column: String, sql: String)]
}

extension NSSQLiteStore {
    /// The byte-order checks that a sort on one of `entity`'s string attributes would run now, to be run elsewhere
    /// (a browser runs them on its background connection when a table opens, so that its first sort does not pay
    /// for a read of the column) and handed back with ``adoptTextOrder(_:of:)``; nil when none is undecided.
    package func undecidedTextOrderChecks(for entity: NSEntityDescription) throws -> TextOrderChecks? {
        guard let coordinator = persistentStoreCoordinator, let table = layout.table(forEntity: entity.entityName)?.name else {
            return nil
        }
        return try coordinator.withLock { () throws -> TextOrderChecks? in
            let version = try textOrderVersion()
            let columns = entity.allProperties.compactMap { property -> String? in
                guard let attribute = property as? NSAttributeDescription, attribute.attributeType == .stringAttributeType,
                      !attribute.isTransient,
                      let column = layout.columns(forProperty: attribute.name, ofEntity: entity.entityName)?.value,
                      binaryTextOrder.answer(for: table + "." + column, at: version) == nil
                else { return nil }
                return column
            }
            guard !columns.isEmpty else { return nil }
            return TextOrderChecks(version: version, table: table, queries: columns.map {
                ($0, BinaryTextOrder.checkSQL(table: table, column: $0))
            })
        }
    }

    /// Keeps the answers of `checks` (column → whether its texts may be sorted by their bytes), unless the database
    /// changed since they were asked for. Such answers could not be used anyway (answers are looked up by the
    /// current state), but they would replace ones a sort decided meanwhile.
    package func adoptTextOrder(_ answers: [String: Bool], of checks: TextOrderChecks) throws {
        guard let coordinator = persistentStoreCoordinator else { return }
        try coordinator.withLock {
            guard try textOrderVersion() == checks.version else { return }
            for (column, safe) in answers { binaryTextOrder.keep(safe, for: checks.table + "." + column, at: checks.version) }
        }
    }

    /// The state of the database as the store's connection sees it; call under the coordinator's lock.
    func textOrderVersion() throws -> BinaryTextOrderCache.Version {
        do {
            return .init(dataVersion: try connection.dataVersion, totalChanges: connection.totalChanges)
        } catch {
            throw CoreDataError(.sqlite, "\(url?.path ?? "store"): \(error.description)", underlyingError: error)
        }
    }
}

/// Which columns' texts the store may sort by their bytes, each answer valid for one state of the database.
package final class BinaryTextOrderCache: Sendable {
    /// A state of the database as one connection sees it: other connections' commits move `dataVersion`, its own
    /// writes `totalChanges`.
    package struct Version: Equatable, Sendable {
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
