import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import PropertyListCoding
import SQLiteDatabase

/// Core Data's SQLite store, reading and writing Apple's exact format (store format reference): one table per
/// root entity, `Z_ENT` for inheritance, `Z_PRIMARYKEY`, `Z_METADATA`, join tables, external data files.
///
/// A store written by Apple's Core Data opens in place, together with its `-wal`.
public final class NSSQLiteStore: NSPersistentStore, @unchecked Sendable {
    public override class var storeType: String { NSSQLiteStoreType }

    private(set) var file: SQLiteStoreFile!
    private(set) var layout: StoreLayout!
    private(set) var model: NSManagedObjectModel!
    private var entitiesByNumber = EntityNumberTable<NSEntityDescription>()
    private var selectPlans: [String: SelectPlan] = [:]
    /// Builds every statement the store runs (fetches, windows, loads of relationships, writes) over its layout.
    private(set) var builder: StoreSQL!
    /// Prepared statements and plans of the save path, reused across saves.
    let saveStatements = SaveStatementCache()
    /// Prepared fetch statements, reused across fetches.
    let fetchStatements = FetchStatementCache()
    /// Which text columns batched fetches sort by bytes (NSSQLiteStore+TextOrder.swift).
    let binaryTextOrder = BinaryTextOrderCache()

    var connection: Connection { file.connection }
    /// The file of a store added at `/dev/null` or without a URL, removed (with its companions) when the store goes.
    private var privateFileURL: URL?

    deinit {
        guard let privateFileURL else { return }
        closeFile()
        try? Self.destroyFiles(at: privateFileURL)
    }


    public override func load() throws {
        if privateFileURL == nil, url == nil || url?.path == "/dev/null" {
            // Apple's idiom for a throwaway SQLite store (`/dev/null`, or a description without a URL): a private
            // file of its own, removed with the store, so every such store starts empty.
            privateFileURL = FileManager.default.temporaryDirectory.appendingPathComponent("OpenCoreData-\(UUID().uuidString).sqlite")
            url = privateFileURL
        }
        guard let url else { throw CoreDataError(.persistentStoreOpen, "an SQLite store needs a file URL") }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(.persistentStoreOpen, "\(url.path): the store has no coordinator")
        }
        model = coordinator.managedObjectModel
        saveStatements.removeAll()
        fetchStatements.removeAll()
        binaryTextOrder.removeAll()
        // Adding a store where no file exists creates it, as Apple's coordinator does.
        try createFileIfMissing(at: url)
        try openFile(at: url)
        if !versionHashesMatch() {
            // The migration runs on the connection just opened, which then reads the new metadata; after a staged
            // migration, which opens the file itself step by step, the store is opened again.
            var open: SQLiteStoreFile? = file
            file = nil
            if try migrateOnOpen(at: url, file: &open), let open {
                try reloadFile(open)
            } else {
                try openFile(at: url)
            }
        }
        builder = StoreSQL(model: model)
        layout = builder.layout
        for (name, number) in layout.numbering.numbers {
            entitiesByNumber[number] = model.entitiesByName[name]
        }
        try registerDerivedAttributeFunctions()
        try runMaintenanceOnOpen()
        do {
            writeRefusal = try historyRefusal()
        } catch {
            throw CoreDataError(.persistentStoreOpen, "\(url.path): \(error)", underlyingError: error)
        }
    }

    private func openFile(at url: URL) throws {
        do {
            file = try SQLiteStoreFile(path: url.path, mode: isReadOnly ? .readOnly : .readWrite,
                                       busyTimeout: .milliseconds(Int64((storeOptions[NSPersistentStoreTimeoutOption] as? Double ?? 5) * 1000)))
        } catch {
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
        try applyPragmas()
        readMetadata()
    }

    /// Reads the metadata of the store `open` holds (after a migration on its connection) without reopening it.
    private func reloadFile(_ open: SQLiteStoreFile) throws {
        do {
            file = try SQLiteStoreFile(connection: open.connection, path: open.path)
        } catch {
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
        readMetadata()
    }

    private func readMetadata() {
        storeIdentifier = file.metadata.uuid
        metadata = file.metadata.dictionary.mapValues(\.foundationValue)
        metadata[StoreMetadata.Key.storeUUID] = file.metadata.uuid
    }

    /// A model opens a store only when its entity hashes are exactly those the store's metadata records
    /// (`isConfiguration(withName:compatibleWithStoreMetadata:)`), unless `NSIgnorePersistentStoreVersioningOption`
    /// is set. Otherwise the store is migrated (`migrateOnOpen`) or refused with what differs.
    private func versionHashesMatch() -> Bool {
        if (storeOptions[NSIgnorePersistentStoreVersioningOption] as? Bool) == true { return true }
        return model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata)
    }

    /// Writes to tables with derived-attribute triggers need the functions those triggers call.
    private func registerDerivedAttributeFunctions() throws {
        do {
            try DerivedAttributeFunctions.register(on: connection)
            try PredicateSQLFunctions.register(on: connection)
        } catch {
            throw CoreDataError(.sqlite, "\(url?.path ?? ""): cannot register Core Data's trigger functions: \(error)", underlyingError: error)
        }
    }

    func entity(number: Int) -> NSEntityDescription? { entitiesByNumber[number] }

    // MARK: Lifecycle (NSSQLiteStore+Lifecycle.swift; overrides must be declared in the class itself)

    public override func willRemove(from coordinator: NSPersistentStoreCoordinator?) { closeFile() }

    public override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] { try readMetadata(at: url) }

    public override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try writeMetadata(metadata, at: url)
    }

    override class func checkDestroyable(at url: URL) throws { try checkIsDestroyable(url) }

    override class func destroyStore(at url: URL, options: [String: Any]) throws { try destroyFiles(at: url) }

    override class func replaceStore(at destination: URL, withStoreFrom source: URL, options: [String: Any]) throws {
        try copyStore(to: destination, from: source)
    }

    /// Closes the store's connection (after it is removed from its coordinator or moved): prepared statements go
    /// first, then the file handle.
    func closeFile() {
        saveStatements.removeAll()
        fetchStatements.removeAll()
        binaryTextOrder.removeAll()
        selectPlans.removeAll()
        file = nil
    }

    // MARK: Select plans

    /// The columns selected for an entity (and its descendants) and how each concrete entity decodes them.
    struct SelectPlan {
        var table: EntityTable
        /// Selected columns after `Z_PK, Z_ENT, Z_OPT`.
        var columns: [String]
        /// Per concrete entity number: for each of its slots, how to read it.
        var decoders: SlotDecoderTable
        /// The descriptions the decoders point to without retaining them (destination entities), kept alive as long
        /// as the plan.
        var describedObjects: [AnyObject]
        /// The entity number of every row of the table, when its inheritance tree has one entity only: the plan then
        /// selects it as a constant rather than reading `Z_ENT` from each row (as Core Data's own SQL selects `0`
        /// there), which saves SQLite a column of every record and the decoder a read.
        var soleEntityNumber: Int?

        /// What a select of `t0` with values reads: the key columns, then ``columns`` (built once per plan).
        var selectList: [String]
        /// The key columns of `t0` alone (a fetch without property values).
        var keySelectList: [String]

        init(table: EntityTable, columns: [String], decoders: SlotDecoderTable, describedObjects: [AnyObject], soleEntityNumber: Int?) {
            self.table = table
            self.columns = columns
            self.decoders = decoders
            self.describedObjects = describedObjects
            self.soleEntityNumber = soleEntityNumber
            keySelectList = StoreSQL.keyColumns(alias: "t0", soleEntityNumber: soleEntityNumber)
            selectList = keySelectList + StoreSQL.columns(columns, alias: "t0")
        }

        /// `Z_PK`, `Z_ENT` (or the sole entity's number) and `Z_OPT` of the table aliased `alias`: the first three
        /// columns of every select the decoders read.
        func keyColumns(alias: String) -> [String] {
            StoreSQL.keyColumns(alias: alias, soleEntityNumber: soleEntityNumber)
        }

        /// The key columns and ``columns`` of the table aliased `alias`, as SQL.
        func selectList(alias: String) -> [String] {
            alias == "t0" ? selectList : keyColumns(alias: alias) + StoreSQL.columns(columns, alias: alias)
        }
    }

    func selectPlan(for entity: NSEntityDescription) throws -> SelectPlan {
        if let plan = selectPlans[entity.entityName] { return plan }
        guard let table = layout.table(forEntity: entity.entityName), let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(.persistentStoreOperation, "the store has no table for entity \(entity.entityName)")
        }
        var columns: [String] = []
        var columnIndex: [String: Int] = [:]
        func column(_ name: String) -> Int {
            if let index = columnIndex[name] { return index }
            columns.append(name)
            columnIndex[name] = columns.count + 2  // after Z_PK, Z_ENT, Z_OPT
            return columns.count + 2
        }
        var decoders: [(number: Int, decoders: [SlotDecoder])] = []
        var describedObjects: [AnyObject] = []
        for concrete in entity.selfAndDescendants {
            guard let number = layout.numbering[concrete.entityName] else { continue }
            let properties = coordinator.slots(for: concrete).properties
            describedObjects += properties.compactMap { ($0 as? NSRelationshipDescription)?.destinationEntity }
            decoders.append((number, properties.map { property -> SlotDecoder in
                guard let mapped = layout.columns(forProperty: property.name, ofEntity: concrete.entityName) else { return .unmapped }
                if let attribute = property as? NSAttributeDescription {
                    return .attribute(column: column(mapped.value), attribute)
                }
                guard let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity else {
                    return .unmapped
                }
                return .toOne(keyColumn: column(mapped.value), entityNumberColumn: mapped.entityNumber.map(column), destination: destination)
            }))
        }
        // The layout numbers a tree's entities consecutively: a tree of one entity has a range of one number.
        let soleEntityNumber = layout.numbering.range(of: entity.rootEntity.entityName).flatMap { $0.count == 1 ? $0.lowerBound : nil }
        let plan = SelectPlan(table: table, columns: columns, decoders: SlotDecoderTable(decoders), describedObjects: describedObjects,
                              soleEntityNumber: soleEntityNumber)
        selectPlans[entity.entityName] = plan
        return plan
    }

    /// A decoder for the rows of one statement selected with `plan`: the store's entity numbers and identifier are
    /// read once per statement, not once per row.
    func rowDecoder(plan: SelectPlan, withValues: Bool) -> RowDecoder {
        RowDecoder(plan: plan, entities: entitiesByNumber, store: .intern(storeIdentifier), withValues: withValues,
                   storePath: url?.path ?? "")
    }
}

/// Waits this many seconds for another process's lock before failing (`NSPersistentStoreTimeoutOption`).
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
/// Opens a store whose version hashes differ from the model's (for browsing with an inferred or other model).
public let NSIgnorePersistentStoreVersioningOption = "NSIgnorePersistentStoreVersioningOption"

extension PropertyListValue {
    /// The value as the Foundation type Apple's metadata dictionaries hold.
    var foundationValue: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return value
        case .unsignedInteger(let value): return value
        case .real(let value): return value
        case .bool(let value): return value
        case .date(let value): return value
        case .data(let value): return value
        case .array(let values): return values.map(\.foundationValue)
        case .dictionary(let values): return values.mapValues(\.foundationValue)
        case .uid(let value): return value
        case .null: return NSNull()
        }
    }
}
