import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// External binary data that a save leaves behind: the files of values that rows stop referring to, because the
/// row is deleted or the attribute gets a new value. They are found inside the save's transaction, from the rows
/// as they are before the save writes them, and removed only once the transaction has committed, so a save that
/// fails or is killed never loses a value the store still refers to (at worst a file is left over).
extension NSSQLiteStore {
    /// The files that `object`'s row refers to in the columns of external-storage attributes: every such column
    /// when `slots` is nil (a delete), else only the columns of those slots (an update).
    func replacedExternalFiles(of object: NSManagedObject, slots: SlotSet?, writer: SaveWriter) throws -> [URL] {
        // Most entities have no such attribute: every save of their objects stops here.
        let external = object.slots.externalStorageSlots
        guard !external.isEmpty, let url, let table = layout.table(forEntity: object.entity.entityName) else { return [] }
        let properties = object.slots.properties
        let candidates = (slots.map { changed in external.filter(changed.contains) } ?? external).compactMap { slot -> (slot: Int, column: String)? in
            guard let column = layout.columns(forProperty: properties[slot].name, ofEntity: object.entity.entityName)?.value else { return nil }
            return (slot, column)
        }
        guard !candidates.isEmpty else { return [] }
        let sql = builder.columns(candidates.map(\.column), ofRowIn: table)
        let statement = try writer.statement(sql)
        defer { statement.reset() }
        try writer.bind(.integer(object.objectID.primaryKey), at: 1, of: statement)
        guard try writer.step(statement, sql: sql) else { return [] }
        let directory = externalDataDirectory(for: url)
        let written = slots == nil ? [] : (object.storedValues ?? [])
        return zip(candidates, statement.values()).compactMap { candidate, value -> URL? in
            guard case .blob(let bytes) = value, case .externalData(let reference) = ExternalDataReference.decode(bytes),
                  !reference.isEmpty, !reference.contains("/"), reference != "..", reference != "." else { return nil }
            // An update that writes the same reference back keeps the file.
            if candidate.slot < written.count, case .externalData(reference) = written[candidate.slot] { return nil }
            return directory.appendingPathComponent(reference)
        }
    }

    /// Removes the files a committed save no longer refers to. A file that cannot be removed stays as a leftover:
    /// the store is already consistent without it.
    func removeReplacedExternalFiles(_ files: [URL]) {
        for file in files { try? FileManager.default.removeItem(at: file) }
    }
}
