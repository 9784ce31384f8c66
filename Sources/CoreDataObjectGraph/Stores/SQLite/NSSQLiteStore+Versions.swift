import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// The optimistic-locking versions (`Z_OPT`) a save checks: read inside the save's transaction for rows the context
/// never read, refused when they cannot be incremented, and explained when a row's version is not a number at all.
extension NSSQLiteStore {
    /// Reads, inside the save's transaction, the version of every updated object whose row was never read: an object
    /// changed only through the inverse of a to-many relationship stays a fault, so it knows no version, and binding
    /// none would make every such update look like a conflict. Core Data does the same; such an object changed no
    /// column of its own, so no change of another writer can be lost by taking the row's current version.
    /// Rows that are gone keep their version and surface as conflicts in the update.
    func readVersionsOfUnreadRows(_ updated: [NSManagedObject]) throws {
        let unread = updated.filter { $0.storedValues == nil && $0.pendingValues == nil && !$0.objectID.isTemporaryID }
        guard !unread.isEmpty else { return }
        let byTable = Dictionary(grouping: unread) { layout.table(forEntity: $0.entity.entityName)?.name ?? "" }
        for (name, objects) in byTable where !name.isEmpty {
            guard let table = layout.table(forEntity: objects[0].entity.entityName) else { continue }
            var byKey: [Int64: NSManagedObject] = [:]
            for object in objects { byKey[object.objectID.primaryKey] = object }
            let keys = Array(byKey.keys).sorted()
            for start in stride(from: 0, to: keys.count, by: 500) {
                let chunk = Array(keys[start..<min(start + 500, keys.count)])
                let rows = try run(builder.versions(table: table, count: chunk.count), chunk.map { .integer($0) }) { statement in
                    var rows: [(Int64, SQLiteValue)] = []
                    try statement.forEachRow { row in rows.append((row.int64(at: 0), row.value(at: 1))) }
                    return rows
                }
                for (key, version) in rows {
                    guard let object = byKey[key] else { continue }
                    guard case .integer(let number) = version else { throw malformedVersion(of: object, table: name, found: version) }
                    object.snapshotVersion = number
                }
            }
        }
    }

    /// Refuses to update or delete a row whose version cannot be incremented (`Z_OPT` at `Int64.max`).
    func checkVersionCanAdvance(_ object: NSManagedObject) throws {
        guard object.snapshotVersion == Int64.max else { return }
        throw CoreDataError(
            .persistentStoreSave,
            "\(object.entity.entityName) \(object.objectID.uriRepresentation().absoluteString): its version (Z_OPT) is \(Int64.max), the "
                + "largest integer, so it cannot be incremented; the row is damaged; nothing was saved",
            affectedObjectIDs: [object.objectID])
    }

    /// For objects whose update or delete matched no row: an error naming the first whose row holds a version that is
    /// not an integer (NULL, text, real, blob), which no save can match; nil when every row is gone or at another
    /// integer version (true conflicts).
    func malformedVersionError(among conflicting: [NSManagedObject]) throws -> CoreDataError? {
        for object in conflicting {
            guard let table = layout.table(forEntity: object.entity.entityName) else { continue }
            let found = try run(builder.keyColumn(.version, table: table), [.integer(object.objectID.primaryKey)]) { statement in
                var value: SQLiteValue?
                try statement.forEachRow { row in value = row.value(at: 0) }
                return value
            }
            if let found, !found.isInteger { return malformedVersion(of: object, table: table.name, found: found) }
        }
        return nil
    }

    private func malformedVersion(of object: NSManagedObject, table: String, found: SQLiteValue) -> CoreDataError {
        let shown: String
        switch found {
        case .null: shown = "NULL"
        case .integer(let value): shown = "\(value)"
        case .real(let value): shown = "the real number \(value)"
        case .text(let value): shown = "the text \"\(value.prefix(40))\""
        case .blob(let bytes): shown = "a blob of \(bytes.count) bytes"
        }
        return CoreDataError(
            .persistentStoreSave,
            "\(object.entity.entityName) row \(object.objectID.primaryKey) of \(table) holds \(shown) as its version (Z_OPT), where "
                + "Core Data keeps an integer; the row is damaged and cannot be updated or deleted; nothing was saved",
            affectedObjectIDs: [object.objectID])
    }
}

private extension SQLiteValue {
    var isInteger: Bool {
        if case .integer = self { return true }
        return false
    }
}
