import CoreDataModel

/// The DDL Core Data writes for a layout, verbatim in spacing and order (store format reference §2, §3, §5, §6, §9).
extension StoreLayout {
    /// The fixed tables every store has, as Core Data declares them.
    public static let primaryKeyTableStatement =
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    public static let metadataTableStatement =
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    public static let modelCacheTableStatement = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Every statement of a new store's schema in Core Data's order: entity tables (each followed by the join
    /// tables named after its entities' relationships), their indexes in the same order, derived-attribute
    /// triggers, then `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`.
    public func schemaStatements(model: NSManagedObjectModel) -> [String] {
        var tableStatements: [String] = []
        var indexes: [String] = []
        for table in tables {
            tableStatements.append(createStatement(for: table))
            indexes += indexStatements(for: table, model: model)
            let memberNames = Set(model.entitiesByName[table.rootEntityName]?.selfAndDescendants.map(\.entityName) ?? [])
            for join in joinTables where memberNames.contains(join.entityName) {
                tableStatements.append(createStatement(for: join))
                indexes.append(indexStatement(for: join))
            }
        }
        return tableStatements + indexes + derivedAttributeTriggers(model: model)
            + [Self.primaryKeyTableStatement, Self.metadataTableStatement, Self.modelCacheTableStatement]
    }

    /// `CREATE TABLE` for an entity table: `( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, … )`, with the spaces
    /// after `(` and before `)` that Core Data writes.
    public func createStatement(for table: EntityTable) -> String {
        let columns = table.columns.map { column in
            column.role == .primaryKey ? "\(column.name) INTEGER PRIMARY KEY" : "\(column.name) \(column.sqlType)"
        }
        return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
    }

    /// `CREATE TABLE` for a many-to-many join table, with its two-column primary key.
    public func createStatement(for join: JoinTable) -> String {
        var columns = ["\(join.sourceKeyColumn) INTEGER", "\(join.destinationKeyColumn) INTEGER"]
        if let order = join.inverseOrderColumn { columns.append("\(order) INTEGER") }
        if let order = join.relationshipOrderColumn { columns.append("\(order) INTEGER") }
        columns.append("PRIMARY KEY (\(join.sourceKeyColumn), \(join.destinationKeyColumn))")
        return "CREATE TABLE \(join.name) ( \(columns.joined(separator: ", ")) )"
    }

    /// The index on a join table's second column, which makes lookups from the other side cheap.
    public func indexStatement(for join: JoinTable) -> String {
        "CREATE INDEX \(join.name)_\(join.destinationKeyColumn)_INDEX ON \(join.name) (\(join.destinationKeyColumn), \(join.sourceKeyColumn))"
    }

    /// A table's indexes in Core Data's order: to-one keys (and legacy indexed attributes) in column order, the
    /// `Z_ENT` index of an inheritance tree, fetch indexes, then uniqueness constraints.
    public func indexStatements(for table: EntityTable, model: NSManagedObjectModel) -> [String] {
        var statements: [String] = []
        let byName = model.entitiesByName
        for column in table.columns {
            switch column.role {
            case .toOneKey:
                statements.append("CREATE INDEX \(table.name)_\(column.name)_INDEX ON \(table.name) (\(column.name))")
            case .attribute(let entityName, let propertyName):
                if byName[entityName]?.propertiesByName[propertyName]?.isIndexed == true {
                    statements.append("CREATE INDEX \(table.name)_\(column.name)_INDEX ON \(table.name) (\(column.name))")
                }
            default:
                continue
            }
        }
        guard let root = byName[table.rootEntityName] else { return statements }
        if !root.subentities.isEmpty {
            statements.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)")
        }
        let members = root.selfAndDescendants.sorted { (numbering[$0.entityName] ?? 0) < (numbering[$1.entityName] ?? 0) }
        for entity in members {
            for index in entity.indexes {
                let indexed = index.elements.compactMap { element -> String? in
                    guard let property = element.propertyName,
                          let column = columns(forProperty: property, ofEntity: entity.entityName)?.value else { return nil }
                    return "\(column) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")"
                }
                guard !indexed.isEmpty else { continue }
                statements.append("CREATE INDEX Z_\(entity.entityName)_\(index.name) ON \(table.name) (\(indexed.joined(separator: ", ")))")
            }
        }
        for entity in members {
            for constraint in entity.uniquenessConstraintNames {
                let constrained = constraint.compactMap { columns(forProperty: $0, ofEntity: entity.entityName)?.value }
                guard constrained.count == constraint.count, !constrained.isEmpty else { continue }
                let collated = constrained.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")
                statements.append("CREATE UNIQUE INDEX Z_\(entity.entityName)_UNIQUE_\(constraint.joined(separator: "_")) ON \(table.name) (\(collated))")
            }
        }
        return statements
    }
}
