import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// The `UPDATE` plan chosen for an entity and a set of changed slots, kept for the next row of a save (a class:
/// handing it from row to row is one reference, not a copy of the plan's SQL, statement and bindings).
final class UpdatePlanChoice {
    let entity: NSEntityDescription
    let slots: SlotSet
    let withoutOrderKey: [Int]
    let plan: RowWritePlan?

    init(entity: NSEntityDescription, slots: SlotSet, withoutOrderKey: [Int], plan: RowWritePlan?) {
        self.entity = entity
        self.slots = slots
        self.withoutOrderKey = withoutOrderKey
        self.plan = plan
    }
}


extension NSSQLiteStore {
    /// Values at or above this size go to a file in the store's support folder when the attribute allows it.
    static let externalStorageThreshold = 128 * 1024

    /// Writes a save in one transaction, as Core Data writes its format: new primary keys from `Z_MAX`,
    /// `Z_OPT` = 1 on insert and + 1 on every update, join-table rows and order keys, optimistic locking on
    /// updates and deletes. Any failure rolls the whole save back and leaves the file as it was.
    public func save(_ request: SaveRequest) throws -> SaveOutcome {
        guard !isReadOnly && !connection.isReadOnly else {
            throw CoreDataError(.persistentStoreSave, "\(url?.path ?? "the store") is open read-only; nothing was written")
        }
        if let writeRefusal { throw CoreDataError(.persistentStoreSave, "\(writeRefusal); nothing was written") }
        var outcome = SaveOutcome()
        var writtenFiles: [URL] = [], replacedFiles: [URL] = []
        let writer = SaveWriter(connection: connection, cache: saveStatements, storePath: url?.path)
        defer {
            let (statements, steps) = (writer.statements, writer.steps)
            persistentStoreCoordinator?.statistics.record { counts in
                counts.statements += statements
                counts.virtualMachineSteps += steps
            }
        }
        do {
            try connection.inTransaction(.immediate) {
                let permanentIDs = try allocatePrimaryKeys(for: request.inserted)
                outcome.permanentIDs = permanentIDs
                try readVersionsOfUnreadRows(request.updated)
                // Temporary IDs of the objects inserted together, for relationships between them: built on the first
                // temporary ID a relationship holds (objects without relationships never need it).
                var permanentByTemporary: [NSManagedObjectID: NSManagedObjectID]?
                let resolve: (NSManagedObjectID) -> NSManagedObjectID = { id in
                    guard id.isTemporaryID else { return id }
                    if permanentByTemporary == nil {
                        var table: [NSManagedObjectID: NSManagedObjectID] = [:]
                        table.reserveCapacity(request.inserted.count)
                        for (object, permanent) in zip(request.inserted, permanentIDs) where object.objectID.isTemporaryID {
                            table[object.objectID] = permanent
                        }
                        permanentByTemporary = table
                    }
                    return permanentByTemporary![id] ?? id
                }
                var conflicts: [NSManagedObject] = []
                outcome.updatedVersions.reserveCapacity(request.updated.count)
                // Inserted objects come in runs of one entity: its plan is looked up when the entity changes.
                var insert: (entity: NSEntityDescription, plan: InsertPlan?)?
                for (object, id) in zip(request.inserted, permanentIDs) {
                    if insert?.entity !== object.entity {
                        insert = (object.entity, try insertPlan(for: object.entity, slots: object.slots, writer: writer))
                        // `Z_ENT` and `Z_OPT` are the same for every row of the run, and a reset keeps bindings: bound
                        // once here, at every log level (`insertRow` only logs them for each row).
                        if let plan = insert?.plan {
                            try writer.bindUnlogged(integer: plan.entityNumber, at: 2, of: plan.row.statement)
                            try writer.bindUnlogged(integer: 1, at: 3, of: plan.row.statement)
                        }
                    }
                    guard let plan = insert?.plan else { continue }
                    try insertRow(for: object, id: id, plan: plan, writer: writer, resolve: resolve, files: &writtenFiles)
                }
                var lastUpdate: UpdatePlanChoice?
                for object in request.updated {
                    // Checked here: most entities have no external storage, and appending an empty array costs a call.
                    if !object.slots.externalStorageSlots.isEmpty {
                        replacedFiles += try replacedExternalFiles(of: object, slots: object.changes.changedSlots, writer: writer)
                    }
                    try checkVersionCanAdvance(object)
                    if try updateRow(for: object, writer: writer, lastPlan: &lastUpdate, resolve: resolve, files: &writtenFiles) {
                        outcome.updatedVersions.append(object.snapshotVersion + 1)
                    } else {
                        outcome.updatedVersions.append(object.snapshotVersion)
                        conflicts.append(object)
                    }
                }
                var delete: (entity: NSEntityDescription, plan: DeletePlan?)?
                for object in request.deleted {
                    if !object.slots.externalStorageSlots.isEmpty {
                        replacedFiles += try replacedExternalFiles(of: object, slots: nil, writer: writer)
                    }
                    if delete?.entity !== object.entity { delete = (object.entity, try deletePlan(for: object.entity, writer: writer)) }
                    guard let plan = delete?.plan else { continue }
                    if !(try deleteRow(for: object, plan: plan, writer: writer)) { conflicts.append(object) }
                }
                guard conflicts.isEmpty else {
                    // A version that is not an integer never matches: that is damage to report, not a conflict.
                    if let damaged = try malformedVersionError(among: conflicts) { throw damaged }
                    let ids = conflicts.map(\.objectID)
                    throw CoreDataError(
                        .managedObjectMerge,
                        "optimistic locking failure: \(ids.count) object(s) changed or were deleted in the store since they were read: "
                            + ids.map { $0.uriRepresentation().absoluteString }.joined(separator: ", "),
                        affectedObjectIDs: ids)
                }
                try writeRelationshipChanges(request.inserted, writer: writer, resolve: resolve)
                try writeRelationshipChanges(request.updated, writer: writer, resolve: resolve)
                try writePendingMetadata()
            }
        } catch {
            for file in writtenFiles { try? FileManager.default.removeItem(at: file) }
            if let error = error as? SQLiteError {
                throw CoreDataError(.persistentStoreSave, failedSaveMessage(error, journal: connection.restoreAfterFailedWrite()),
                                    underlyingError: error)
            }
            // SQLite's errors arrive wrapped by the writer; a full disk or a journal left behind gets words of its own.
            if let wrapped = error as? CoreDataError, let underlying = wrapped.underlyingError as? SQLiteError {
                let journal = connection.restoreAfterFailedWrite()
                if underlying.storageProblem != nil || journal != nil {
                    throw CoreDataError(wrapped.code, failedSaveMessage(underlying, journal: journal), underlyingError: underlying,
                                        affectedObjectIDs: wrapped.affectedObjectIDs)
                }
            }
            throw error
        }
        removeReplacedExternalFiles(replacedFiles)
        didWritePendingMetadata()
        return outcome
    }

    /// What a failed save's error says: the truth about the file. A failure while writing can leave the rollback
    /// journal hot (the main file holding part of the save); `journal` names it when applying it at once
    /// (`Connection.restoreAfterFailedWrite`) did not work, and the message then says it is still needed.
    func failedSaveMessage(_ error: SQLiteError, journal: String?) -> String {
        let path = url?.path ?? "store"
        let cause = error.storageProblem.map { "\($0): \(error.description)" } ?? error.description
        guard let journal else { return "\(path): the save was rolled back, the store is as it was: \(cause)" }
        let name = (journal as NSString).lastPathComponent
        return "\(path): the save failed and its rollback is not finished: the main file on its own is incomplete, and "
            + "\(name) beside it holds the pages that restore it (the next open applies them). Keep \(name) with the "
            + "store; never copy or delete one without the other: \(cause)"
    }

    /// Foundation's file errors on Linux print as "Error Domain=NSCocoaErrorDomain Code=512 "(null)"": the POSIX
    /// error underneath says what happened.
    static func fileSystemReason(_ error: any Error) -> String {
        if let posix = error as? POSIXError {
            return describe(errno: posix.code.rawValue)
        }
        let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        guard let posix = underlying, posix.domain == NSPOSIXErrorDomain else { return "\(error)" }
        return describe(errno: Int32(posix.code))
    }

    private static func describe(errno code: Int32) -> String {
        let name = [ENOSPC: "ENOSPC: the disk is full", EFBIG: "EFBIG: a file size limit", EDQUOT: "EDQUOT: the disk quota is exhausted",
                    EACCES: "EACCES", EROFS: "EROFS: a read-only file system"][code]
        return String(cString: strerror(code)) + (name.map { " (\($0))" } ?? " (errno \(code))")
    }

    // MARK: Rows

    /// The permanent ID of each of `objects`, in order: new primary keys per inheritance tree, from the root entity's
    /// `Z_MAX`, which then advances (trees in name order, objects in the given order within a tree). Objects given
    /// permanent IDs early (`obtainPermanentIDs`) keep them.
    func allocatePrimaryKeys(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        var ids = objects.map(\.objectID)
        // The temporary objects' positions per root entity; saves rarely touch more than a few trees, so a short list
        // searched by identity costs less than hashing each object's root name.
        var trees: [(root: NSEntityDescription, positions: [Int])] = []
        // Objects of one entity usually come in runs: the entity's tree is looked up when the entity changes.
        var lastEntity: NSEntityDescription?
        var last = -1
        for (position, object) in objects.enumerated() where object.objectID.isTemporaryID {
            if object.entity !== lastEntity {
                lastEntity = object.entity
                let root = object.entity.rootEntity
                last = trees.firstIndex { $0.root === root } ?? {
                    trees.append((root, []))
                    return trees.count - 1
                }()
            }
            trees[last].positions.append(position)
        }
        let store = InternedStoreIdentifier.intern(storeIdentifier)
        for tree in trees.sorted(by: { $0.root.entityName < $1.root.entityName }) {
            guard let root = layout.numbering[tree.root.entityName] else { continue }
            let stored = try connection.scalar(StoreSQL.lastPrimaryKey, arguments: [.integer(Int64(root))])
            let current: Int64
            switch stored {
            case nil, .null?: current = 0
            case .integer(let value)?: current = value
            case let other?:
                throw CoreDataError(.persistentStoreSave, "Z_PRIMARYKEY holds \(other) as Z_MAX of \(tree.root.entityName), where Core Data keeps "
                                    + "an integer; no primary key can be allocated; nothing was saved")
            }
            // A damaged or hostile Z_MAX near the largest integer must not overflow (a trap) or wrap to used keys.
            let (last, overflow) = current.addingReportingOverflow(Int64(tree.positions.count))
            guard !overflow, current >= 0 else {
                throw CoreDataError(.persistentStoreSave, "Z_PRIMARYKEY's Z_MAX for \(tree.root.entityName) is \(current): \(tree.positions.count) more "
                                    + "primary key(s) would pass the largest integer (\(Int64.max)); nothing was saved")
            }
            try connection.execute(sql: StoreSQL.advancePrimaryKey, arguments: [.integer(last), .integer(Int64(root))])
            for (offset, position) in tree.positions.enumerated() {
                ids[position] = NSManagedObjectID(entity: objects[position].entity, store: store, primaryKey: current + 1 + Int64(offset))
            }
        }
        return ids
    }

    /// Inserts one row through the entity's cached `INSERT`, binding each slot's columns directly.
    private func insertRow(for object: NSManagedObject, id: NSManagedObjectID, plan: InsertPlan, writer: SaveWriter,
                           resolve: (NSManagedObjectID) -> NSManagedObjectID, files: inout [URL]) throws {
        let statement = plan.row.statement
        try writer.bind(integer: id.primaryKey, at: 1, of: statement)
        // Bound once per run (see `save`): logged for each row, as the log lists what the row is written with.
        writer.logBinding(.integer(plan.entityNumber))
        writer.logBinding(.integer(1))
        _ = try bindSlots(of: plan.row, for: object, from: 4, writer: writer, resolve: resolve, files: &files)
        try writer.run(statement, sql: plan.row.sql)
    }

    /// Updates the changed columns and the version; false when the row's version is no longer the one read.
    /// `lastPlan` is the plan the previous row used: updates of one save mostly change the same slots of one entity,
    /// and comparing slot sets costs less than building and hashing a plan key.
    private func updateRow(for object: NSManagedObject, writer: SaveWriter, lastPlan: inout UpdatePlanChoice?,
                           resolve: (NSManagedObjectID) -> NSManagedObjectID, files: inout [URL]) throws -> Bool {
        let changed = object.changes.changedSlots
        let slots = object.slots
        // Only to-one relationships (slots without a stored attribute) have order keys to leave alone; an entity
        // without relationships has none.
        var withoutOrderKey: [Int] = []
        if !slots.persistentRelationships.isEmpty {
            for slot in changed where slots.storedAttributes[slot] == nil && !writesOrderKey(of: object, slot: slot) {
                withoutOrderKey.append(slot)
            }
        }
        let choice: UpdatePlanChoice
        if let last = lastPlan, last.entity === object.entity, last.slots == changed,
           last.withoutOrderKey.isEmpty ? withoutOrderKey.isEmpty : last.withoutOrderKey == withoutOrderKey {
            choice = last
        } else {
            let plan = try updatePlan(for: object.entity, slots: changed.sorted(), withoutOrderKey: withoutOrderKey,
                                      objectSlots: slots, writer: writer)
            choice = UpdatePlanChoice(entity: object.entity, slots: changed, withoutOrderKey: withoutOrderKey, plan: plan)
            lastPlan = choice
        }
        guard let plan = choice.plan else { return true }
        let next = try bindSlots(of: plan, for: object, from: 1, writer: writer, resolve: resolve, files: &files)
        try writer.bind(integer: object.objectID.primaryKey, at: next, of: plan.statement)
        try writer.bind(integer: object.snapshotVersion, at: next + 1, of: plan.statement)
        try writer.run(plan.statement, sql: plan.sql)
        return connection.changes == 1
    }

    private func deleteRow(for object: NSManagedObject, plan: DeletePlan, writer: SaveWriter) throws -> Bool {
        try writer.bind(integer: object.objectID.primaryKey, at: 1, of: plan.statement)
        try writer.bind(integer: object.snapshotVersion, at: 2, of: plan.statement)
        try writer.run(plan.statement, sql: plan.sql)
        let deleted = connection.changes == 1
        for join in plan.joinDeletes {
            try writer.bind(integer: object.objectID.primaryKey, at: 1, of: join.statement)
            try writer.run(join.statement, sql: join.sql)
        }
        return deleted
    }

    /// A stored value in Core Data's column encoding (store format reference §4.4, §7).
    func encode(_ stored: StoredValue, for attribute: NSAttributeDescription, files: inout [URL]) throws -> SQLiteValue {
        guard case .attribute(let value) = stored else {
            if case .externalData(let reference) = stored { return .blob([2] + Array(reference.utf8) + [0]) }
            return .null
        }
        switch value {
        case .integer(let v): return .integer(v)
        case .boolean(let v): return .integer(v ? 1 : 0)
        case .double(let v): return .real(v)
        case .float(let v): return .real(Double(v))
        case .decimal(let v): return .real(NSDecimalNumber(decimal: v).doubleValue)
        case .string(let v): return .text(v)
        case .date(let v): return .real(v.timeIntervalSinceReferenceDate)
        case .uuid(let v): return .blob(withUnsafeBytes(of: v.uuid) { Array($0) })
        case .uri(let v): return .text(v.absoluteString)
        case .data(let data):
            guard attribute.allowsExternalBinaryDataStorage else { return .blob([UInt8](data)) }
            guard data.count >= Self.externalStorageThreshold, let url else { return .blob([1] + [UInt8](data)) }
            let name = UUID().uuidString
            let directory = externalDataDirectory(for: url)
            let file = directory.appendingPathComponent(name)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                // Flushed before the row naming it commits: a power cut never leaves a row without its whole file.
                try DurableFile.write(data, to: file)
            } catch {
                throw CoreDataError(.persistentStoreSave, "\(url.path): cannot write the external data file of \(attribute.entity?.entityName ?? "?").\(attribute.name) "
                                    + "(\(data.count) bytes) to \(file.path): \(Self.fileSystemReason(error))", underlyingError: error)
            }
            files.append(file)
            return .blob([2] + Array(name.utf8) + [0])
        }
    }

    // MARK: Relationships stored outside the row

    /// Join-table rows for many-to-many changes, and order keys for ordered relationships.
    private func writeRelationshipChanges(_ objects: [NSManagedObject], writer: SaveWriter,
                                          resolve: (NSManagedObjectID) -> NSManagedObjectID) throws {
        for object in objects {
            if object.isInserted ? object.toMany.isEmpty : object.changes.committedToMany.isEmpty { continue }
            let changedNames = object.isInserted
                ? Set(object.toMany.keys) : Set(object.changes.committedToMany.keys)
            for name in changedNames.sorted() {
                guard let relationship = object.entity.relationshipsByName[name], relationship.isToMany else { continue }
                let current = object.toMany[name]?.ids ?? []
                let committed = object.isInserted ? [] : (object.changes.committedToMany[name] ?? [])
                let source = resolve(object.objectID)
                if let sides = builder.joinSides(relationshipName: name, entityName: object.entity.entityName) {
                    try writeJoinRows(builder.joinWrites(sides), writer: writer, source: source, current: current.map(resolve),
                                      committed: committed.map(resolve))
                } else if relationship.inverseRelationship == nil {
                    // No join table and no inverse column: Apple's layout for these is unknown (store format
                    // reference §5), so the change is refused rather than silently dropped.
                    guard current == committed else {
                        throw CoreDataError(
                            .persistentStoreSave,
                            "\(object.entity.entityName).\(name) is a to-many relationship without an inverse; storing one is not "
                                + "implemented yet (give it an inverse); nothing was saved",
                            affectedObjectIDs: [object.objectID])
                    }
                } else if relationship.isOrdered, let sql = builder.orderKeyUpdate(relationship) {
                    for (position, child) in current.map(resolve).enumerated() {
                        try writer.run(sql, [.integer(Int64(position + 1)), .integer(child.primaryKey)])
                    }
                }
            }
        }
    }

    private func writeJoinRows(_ sql: StoreSQL.JoinWrites, writer: SaveWriter, source: NSManagedObjectID,
                               current: [NSManagedObjectID], committed: [NSManagedObjectID]) throws {
        // Both sides of a changed pair may arrive here: deletes are idempotent and inserts ignore duplicates.
        let currentKeys = Set(current.map(\.primaryKey)), committedKeys = Set(committed.map(\.primaryKey))
        for removed in committedKeys.subtracting(currentKeys).sorted() {
            try writer.run(sql.delete, [.integer(source.primaryKey), .integer(removed)])
        }
        // An unordered relationship's array follows a Set's iteration order, which differs from run to run: rows are
        // written in key order instead, so the same changes always write the same file.
        let additions = current.filter { !committedKeys.contains($0.primaryKey) }
        for added in sql.order == nil ? additions.sorted(by: { $0.primaryKey < $1.primaryKey }) : additions {
            try writer.run(sql.insert, [.integer(source.primaryKey), .integer(added.primaryKey)])
        }
        if let order = sql.order {
            for (position, destination) in current.enumerated() {
                try writer.run(order, [.integer(Int64(position + 1)), .integer(source.primaryKey), .integer(destination.primaryKey)])
            }
        }
    }
}

extension NSSQLiteStore {
    /// Reserves primary keys for objects not saved yet (`obtainPermanentIDs(for:)`), advancing `Z_MAX` at once.
    /// Returns the IDs in the order of `objects`.
    public func reservePrimaryKeys(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        guard !isReadOnly && !connection.isReadOnly else {
            throw CoreDataError(.persistentStoreSave, "\(url?.path ?? "the store") is open read-only")
        }
        if let writeRefusal { throw CoreDataError(.persistentStoreSave, writeRefusal) }
        return try connection.inTransaction(.immediate) { try allocatePrimaryKeys(for: objects) }
    }
}
