import CoreDataModel
import Foundation

/// Builds a `SQLiteMigrationPlan`.
public struct SQLiteMigrationPlanner {
    public let sourceModel: NSManagedObjectModel
    public let destinationModel: NSManagedObjectModel
    public let mapping: NSMappingModel
    let source: StoreLayout
    let destination: StoreLayout
    /// Destination entity name → source entity.
    var sourceOf: [String: NSEntityDescription] = [:]
    private var pairTables: [String: String] = [:]
    private var statements: [String] = []
    private var pairStatements: [String] = []

    static let oldPrefix = "_OCD_MIGRATING_"

    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel, mapping: NSMappingModel) throws(MigrationMappingError) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.mapping = mapping
        source = StoreLayout(model: sourceModel)
        destination = StoreLayout(model: destinationModel)
        for entityMapping in mapping.entityMappings {
            if let name = entityMapping.sourceEntityName, sourceModel.entitiesByName[name] == nil {
                throw MigrationMappingError(reason: "entity mapping \(entityMapping.name) names source entity \(name), which the source model does not have",
                                            entity: name)
            }
            if let name = entityMapping.destinationEntityName, destinationModel.entitiesByName[name] == nil {
                throw MigrationMappingError(reason: "entity mapping \(entityMapping.name) names destination entity \(name), which the destination model does not have",
                                            entity: name)
            }
            guard entityMapping.mappingType != .addEntityMappingType, entityMapping.mappingType != .removeEntityMappingType,
                  let from = entityMapping.sourceEntityName, let to = entityMapping.destinationEntityName else { continue }
            if entityMapping.mappingType == .customEntityMappingType || entityMapping.entityMigrationPolicyClassName?.isEmpty == false {
                throw MigrationMappingError(reason: "entity mapping \(entityMapping.name) uses a migration policy "
                                                + "(\(entityMapping.entityMigrationPolicyClassName ?? "custom")), which SQL migration cannot run",
                                            entity: to)
            }
            sourceOf[to] = sourceModel.entitiesByName[from]
        }
    }

    // MARK: Property sources

    /// The source property a destination property copies, nil when it takes its default.
    func sourceProperty(of property: String, entity: String) throws(MigrationMappingError) -> NSPropertyDescription? {
        guard let sourceEntity = sourceOf[entity], let entityMapping = mapping.entityMapping(forDestinationEntity: entity),
              let propertyMapping = entityMapping.propertyMappingsByName[property], let expression = propertyMapping.valueExpression
        else { return nil }
        guard let key = propertyMapping.sourcePropertyName else {
            throw MigrationMappingError(reason: "value expression \(expression) is not a plain $source.<key> copy; SQL migration runs only those",
                                        entity: entity, property: property)
        }
        guard let found = sourceEntity.propertiesByName[key] else {
            throw MigrationMappingError(reason: "value expression \(expression) names \(sourceEntity.entityName).\(key), which the source model does not have",
                                        entity: entity, property: property)
        }
        return found
    }

    private func sourceNumbers(_ entities: [NSEntityDescription]) -> [Int] {
        entities.compactMap { sourceOf[$0.entityName].flatMap { source.numbering[$0.entityName] } }.sorted()
    }

    private func destinationNumbers(_ entities: [NSEntityDescription]) -> [Int] {
        entities.compactMap { destination.numbering[$0.entityName] }.sorted()
    }

    /// The entities of a destination table that carry `property` (declared on `owner`): `owner` and its descendants.
    private func carriers(of owner: String) -> [NSEntityDescription] {
        destinationModel.entitiesByName[owner]?.selfAndDescendants ?? []
    }

    // MARK: Relationship pairs

    /// A temporary table `(a, b, o)` of the (owner key, target key, position) pairs a source relationship holds,
    /// filled before any table changes; nil for a to-many relationship without an inverse (no storage known).
    private mutating func pairs(of relationship: NSRelationshipDescription) -> String? {
        guard let owner = relationship.entity else { return nil }
        let key = "\(owner.entityName).\(relationship.name)"
        if let existing = pairTables[key] { return existing }
        let name = "_ocd_pairs_\(pairTables.count + 1)"
        let select: String
        if !relationship.isToMany {
            guard let table = source.table(forEntity: owner.entityName), let range = source.numbering.range(of: owner.entityName),
                  let column = source.columns(forProperty: relationship.name, ofEntity: owner.entityName)?.value else { return nil }
            select = "SELECT Z_PK, \(column), NULL FROM \(table.name) WHERE \(column) IS NOT NULL AND Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        } else if let inverse = relationship.inverseRelationship, !inverse.isToMany, let target = inverse.entity {
            guard let table = source.table(forEntity: target.entityName), let range = source.numbering.range(of: target.entityName),
                  let columns = source.columns(forProperty: inverse.name, ofEntity: target.entityName) else { return nil }
            select = "SELECT \(columns.value), Z_PK, \(columns.orderKey ?? "NULL") FROM \(table.name) WHERE \(columns.value) IS NOT NULL "
                + "AND Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        } else if let join = source.joinTable(forRelationship: relationship.name, ofEntity: owner.entityName) {
            let first = join.entityName == owner.entityName && join.relationshipName == relationship.name
            select = first
                ? "SELECT \(join.sourceKeyColumn), \(join.destinationKeyColumn), \(join.relationshipOrderColumn ?? "NULL") FROM \(join.name)"
                : "SELECT \(join.destinationKeyColumn), \(join.sourceKeyColumn), \(join.inverseOrderColumn ?? "NULL") FROM \(join.name)"
        } else {
            return nil
        }
        pairStatements.append("CREATE TEMP TABLE \(name) (a INTEGER, b INTEGER, o INTEGER)")
        pairStatements.append("INSERT INTO \(name) (a, b, o) \(select)")
        pairStatements.append("CREATE INDEX \(name)_a ON \(name) (a)")
        pairTables[key] = name
        return name
    }

    // MARK: Planning

    /// Plans the migration. `existingIndexes` and `existingTriggers` are the store's (`sqlite_master`): name → SQL.
    public mutating func plan(existingIndexes: [String: (table: String, sql: String)], existingTriggers: [String]) throws(MigrationMappingError) -> SQLiteMigrationPlan {
        var steps: [SQLiteMigrationPlan.TableStep] = []
        var kept: Set<String> = []
        var build: [String] = []
        var post: [String] = []
        var checks: [SQLiteMigrationPlan.RequiredCheck] = []
        var primaryKeySources: [String: [String]] = [:]
        var rebuilt: [(EntityTable, [String])] = []

        for table in destination.tables {
            guard let root = destinationModel.entitiesByName[table.rootEntityName] else { continue }
            let members = root.selfAndDescendants
            let feeding = Set(members.compactMap { sourceOf[$0.entityName].flatMap { source.table(forEntity: $0.entityName)?.name } })
            primaryKeySources[table.name] = feeding.sorted()
            if let inPlace = try inPlaceChanges(for: table, members: members, feeding: feeding) {
                kept.insert(table.name)
                build += inPlace.statements
                steps.append(.init(table: table.name, method: inPlace.statements.isEmpty ? .unchanged : .inPlace, notes: inPlace.notes))
                // Indexes: drop what the destination does not declare, create what is missing.
                let wanted = destination.indexStatements(for: table, model: destinationModel)
                let existing = existingIndexes.filter { $0.value.table == table.name }
                for (name, index) in existing.sorted(by: { $0.key < $1.key }) where !wanted.contains(index.sql) {
                    build.insert("DROP INDEX \(name)", at: 0)
                }
                let present = Set(existing.values.map(\.sql))
                post += wanted.filter { !present.contains($0) }
            } else {
                let notes = feeding.isEmpty ? ["new entity table"] : ["rows from " + feeding.sorted().joined(separator: ", ")]
                steps.append(.init(table: table.name, method: feeding.isEmpty ? .created : .copied, notes: notes))
                rebuilt.append((table, feeding.sorted()))
            }
            try valuePasses(for: table, members: members, post: &post, checks: &checks)
        }
        // Join tables: a source join table that the destination declares identically stays; others are rebuilt.
        var joinBuild: [String] = []
        for join in destination.joinTables {
            if let same = source.joinTables.first(where: { $0 == join }), try joinIsUnchanged(join) {
                kept.insert(same.name)
                steps.append(.init(table: join.name, method: .unchanged, notes: ["many-to-many \(join.entityName).\(join.relationshipName)"]))
                continue
            }
            joinBuild += try joinStatements(for: join)
            steps.append(.init(table: join.name, method: source.joinTables.contains { $0.name == join.name } ? .copied : .created,
                               notes: ["many-to-many \(join.entityName).\(join.relationshipName)"]))
        }
        // Every source table not kept is renamed away (its indexes dropped first, as their names are reused) and
        // dropped at the end.
        let sourceTables = source.tables.map(\.name) + source.joinTables.map(\.name)
        var renames: [String] = []
        var drops: [String] = []
        var dropped: [String] = []
        for name in sourceTables where !kept.contains(name) {
            for (index, entry) in existingIndexes.sorted(by: { $0.key < $1.key }) where entry.table == name {
                renames.append("DROP INDEX \(index)")
            }
            renames.append("ALTER TABLE \(name) RENAME TO \(Self.oldPrefix)\(name)")
            drops.append("DROP TABLE \(Self.oldPrefix)\(name)")
            if !destination.tables.contains(where: { $0.name == name }) && !destination.joinTables.contains(where: { $0.name == name }) {
                dropped.append(name)
            }
        }
        var copies: [String] = []
        var indexes: [String] = []
        for (table, feeding) in rebuilt {
            copies.append(destination.createStatement(for: table))
            copies += try copyStatements(into: table, from: feeding)
            indexes += destination.indexStatements(for: table, model: destinationModel)
        }
        for join in destination.joinTables where !kept.contains(join.name) {
            indexes.append(destination.indexStatement(for: join))
        }
        // Pair tables read the source tables before anything is renamed; entity-number columns and positions are
        // filled once every row is in place.
        statements = existingTriggers.map { "DROP TRIGGER \($0)" } + pairStatements + renames + build + copies + joinBuild
            + entityNumberPasses() + post + drops + indexes + destination.derivedAttributeTriggers(model: destinationModel)
            + pairTables.values.sorted().map { "DROP TABLE \($0)" }
        return SQLiteMigrationPlan(tables: steps, droppedTables: dropped, statements: statements, requiredChecks: checks,
                                   primaryKeySources: primaryKeySources)
    }

    // MARK: In place

    /// The `ALTER TABLE` statements that turn the source table of the same name into `table`, or nil when the
    /// change needs a table copy: entities or columns removed, columns moved, types changed, relationships whose
    /// storage changes.
    private func inPlaceChanges(for table: EntityTable, members: [NSEntityDescription], feeding: Set<String>) throws(MigrationMappingError)
        -> (statements: [String], notes: [String])?
    {
        guard feeding == [table.name], let old = source.tables.first(where: { $0.name == table.name }),
              let oldRoot = sourceModel.entitiesByName[old.rootEntityName] else { return nil }
        let sourceMembers = Set(members.compactMap { sourceOf[$0.entityName]?.entityName })
        guard sourceMembers.count == members.count, Set(oldRoot.selfAndDescendants.map(\.entityName)) == sourceMembers else { return nil }
        var origins: [String?] = []
        for column in table.columns {
            switch column.role {
            case .primaryKey, .entityNumber, .optimisticLockVersion:
                origins.append(column.name)
            case .attribute(let entity, let property):
                guard let from = try sourceProperty(of: property, entity: entity) else { origins.append(nil); continue }
                guard from is NSAttributeDescription, let owner = sourceOf[entity],
                      let sourceColumn = source.columns(forProperty: from.name, ofEntity: owner.entityName)?.value else { return nil }
                origins.append(sourceColumn)
            case .toOneKey(let entity, let property), .toOneOrderKey(let entity, let property):
                guard let from = try sourceProperty(of: property, entity: entity) else { origins.append(nil); continue }
                guard let relationship = from as? NSRelationshipDescription, !relationship.isToMany, let owner = sourceOf[entity],
                      let columns = source.columns(forProperty: from.name, ofEntity: owner.entityName) else { return nil }
                if case .toOneKey = column.role { origins.append(columns.value) } else { origins.append(columns.orderKey) }
            case .toOneEntityNumber(let entity, let property):
                guard let from = try sourceProperty(of: property, entity: entity) else { origins.append(nil); continue }
                guard let owner = sourceOf[entity], let sourceColumn = source.columns(forProperty: from.name, ofEntity: owner.entityName)?.entityNumber
                else { origins.append(nil); continue }
                origins.append(sourceColumn)
            }
        }
        let kept = origins.compactMap { $0 }
        // Every old column kept once, types unchanged. A kept column may sit elsewhere in the new layout (a rename
        // that sorts differently) and new ones anywhere: columns are always named, so their physical order (the old
        // one, with added columns at the end) only shows in the DDL text.
        guard kept.count == old.columns.count, Set(kept) == Set(old.columns.map(\.name)) else { return nil }
        var statements: [String] = []
        var notes: [String] = []
        let oldNames = Set(old.columns.map(\.name))
        for (column, origin) in zip(table.columns, origins) {
            guard let origin else { continue }
            guard old.column(named: origin)?.sqlType == column.sqlType else { return nil }
            if origin != column.name {
                guard !oldNames.contains(column.name) else { return nil }
                statements.append("ALTER TABLE \(table.name) RENAME COLUMN \(origin) TO \(column.name)")
                notes.append("rename \(origin) → \(column.name)")
            }
        }
        for (column, origin) in zip(table.columns, origins) where origin == nil {
            statements.append("ALTER TABLE \(table.name) ADD COLUMN \(column.name) \(column.sqlType)")
            notes.append("add \(column.name)")
        }
        let renumbered = members.compactMap { member -> String? in
            guard let from = sourceOf[member.entityName].flatMap({ source.numbering[$0.entityName] }), let to = destination.numbering[member.entityName],
                  from != to else { return nil }
            return "WHEN \(from) THEN \(to)"
        }
        if !renumbered.isEmpty {
            statements.append("UPDATE \(table.name) SET Z_ENT = CASE Z_ENT \(renumbered.joined(separator: " ")) ELSE Z_ENT END")
            notes.append("Z_ENT renumbered")
        }
        return (statements, notes)
    }

    // MARK: Table copies

    private mutating func copyStatements(into table: EntityTable, from feeding: [String]) throws(MigrationMappingError) -> [String] {
        guard let root = destinationModel.entitiesByName[table.rootEntityName] else { return [] }
        var statements: [String] = []
        for sourceTable in feeding {
            let members = root.selfAndDescendants.filter { sourceOf[$0.entityName].flatMap { source.table(forEntity: $0.entityName)?.name } == sourceTable }
            guard !members.isEmpty else { continue }
            var expressions: [String] = []
            for column in table.columns {
                expressions.append(try expression(for: column, members: members))
            }
            let numbers = sourceNumbers(members).map(String.init).joined(separator: ", ")
            statements.append("INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))) SELECT "
                              + expressions.joined(separator: ", ") + " FROM \(Self.oldPrefix)\(sourceTable) WHERE Z_ENT IN (\(numbers))")
        }
        return statements
    }

    /// The SQL expression, over a row of the old table, that fills `column` for rows of `members`.
    private func expression(for column: StoreColumn, members: [NSEntityDescription]) throws(MigrationMappingError) -> String {
        switch column.role {
        case .primaryKey: return "Z_PK"
        case .optimisticLockVersion: return "Z_OPT"
        case .entityNumber:
            let cases = members.compactMap { member -> String? in
                guard let from = sourceOf[member.entityName].flatMap({ source.numbering[$0.entityName] }), let to = destination.numbering[member.entityName] else { return nil }
                return "WHEN \(from) THEN \(to)"
            }
            return "CASE Z_ENT \(cases.joined(separator: " ")) END"
        case .toOneEntityNumber:
            return "NULL"
        case .attribute(let entity, let property), .toOneKey(let entity, let property), .toOneOrderKey(let entity, let property):
            var byColumn: [String: [Int]] = [:]
            for member in members where carriers(of: entity).contains(where: { $0 === member }) {
                guard let from = try sourceProperty(of: property, entity: member.entityName), let owner = sourceOf[member.entityName],
                      let columns = source.columns(forProperty: from.name, ofEntity: owner.entityName),
                      let number = source.numbering[owner.entityName] else { continue }
                let sourceColumn: String?
                switch column.role {
                case .attribute: sourceColumn = from is NSAttributeDescription ? columns.value : nil
                case .toOneKey: sourceColumn = (from as? NSRelationshipDescription)?.isToMany == false ? columns.value : nil
                default: sourceColumn = (from as? NSRelationshipDescription)?.isToMany == false ? columns.orderKey : nil
                }
                if let sourceColumn { byColumn[sourceColumn, default: []].append(number) }
            }
            guard !byColumn.isEmpty else { return "NULL" }
            let all = Set(sourceNumbers(members))
            if byColumn.count == 1, let (only, numbers) = byColumn.first, Set(numbers) == all { return only }
            let branches = byColumn.sorted { $0.key < $1.key }.map { column, numbers in
                "WHEN Z_ENT IN (\(numbers.sorted().map(String.init).joined(separator: ", "))) THEN \(column)"
            }
            return "CASE \(branches.joined(separator: " ")) END"
        }
    }

    // MARK: Values filled after the copy

    /// Defaults for new and newly required attributes, to-one keys whose storage changed, positions in ordered
    /// relationships that were not ordered, and the checks for required attributes left empty.
    private mutating func valuePasses(for table: EntityTable, members: [NSEntityDescription], post: inout [String],
                                      checks: inout [SQLiteMigrationPlan.RequiredCheck]) throws(MigrationMappingError) {
        for column in table.columns {
            switch column.role {
            case .attribute(let entity, let property):
                guard let attribute = destinationModel.entitiesByName[entity]?.attributesByName[property],
                      !(attribute is NSDerivedAttributeDescription) else { continue }
                let numbers = destinationNumbers(carriers(of: entity).filter { sourceOf[$0.entityName] != nil })
                guard !numbers.isEmpty else { continue }
                let from = try sourceProperty(of: property, entity: entity)
                let needsValue = from == nil || (from?.isOptional == true && !attribute.isOptional)
                guard needsValue else { continue }
                let list = numbers.map(String.init).joined(separator: ", ")
                if let value = attribute.attributeDefault, let literal = SQLLiteral.render(value) {
                    post.append("UPDATE \(table.name) SET \(column.name) = \(literal) WHERE \(column.name) IS NULL AND Z_ENT IN (\(list))")
                } else if !attribute.isOptional {
                    checks.append(.init(table: table.name, column: column.name, entityNumbers: numbers,
                                        what: "\(entity).\(property) is required and has no default value"))
                }
            case .toOneKey(let entity, let property):
                guard let from = try sourceProperty(of: property, entity: entity) as? NSRelationshipDescription, from.isToMany,
                      let pairs = pairs(of: from) else { continue }
                let numbers = destinationNumbers(carriers(of: entity)).map(String.init).joined(separator: ", ")
                post.append("UPDATE \(table.name) SET \(column.name) = p.b FROM (SELECT a, MIN(b) AS b FROM \(pairs) GROUP BY a) AS p "
                            + "WHERE p.a = \(table.name).Z_PK AND \(table.name).Z_ENT IN (\(numbers))")
            case .toOneOrderKey(let entity, let property):
                let from = try sourceProperty(of: property, entity: entity)
                if let relationship = from as? NSRelationshipDescription, !relationship.isToMany,
                   let owner = sourceOf[entity], source.columns(forProperty: relationship.name, ofEntity: owner.entityName)?.orderKey != nil { continue }
                guard let key = destination.columns(forProperty: property, ofEntity: entity)?.value else { continue }
                post.append("UPDATE \(table.name) SET \(column.name) = r.n FROM (SELECT Z_PK AS k, ROW_NUMBER() OVER (PARTITION BY \(key) "
                            + "ORDER BY Z_PK) AS n FROM \(table.name) WHERE \(key) IS NOT NULL) AS r WHERE r.k = \(table.name).Z_PK")
            default:
                continue
            }
        }
    }

    /// `Z<n>_REL` columns hold the destination row's entity number: recomputed from the new tables.
    private func entityNumberPasses() -> [String] {
        var statements: [String] = []
        for table in destination.tables {
            for column in table.columns {
                guard case .toOneEntityNumber(let entity, let property) = column.role,
                      let relationship = destinationModel.entitiesByName[entity]?.relationshipsByName[property],
                      let target = destination.table(forEntity: relationship.destinationEntityName),
                      let key = destination.columns(forProperty: property, ofEntity: entity)?.value else { continue }
                statements.append("UPDATE \(table.name) SET \(column.name) = (SELECT t.Z_ENT FROM \(target.name) AS t WHERE t.Z_PK = \(table.name).\(key)) "
                                  + "WHERE \(key) IS NOT NULL")
            }
        }
        return statements
    }

    // MARK: Join tables

    private func joinIsUnchanged(_ join: JoinTable) throws(MigrationMappingError) -> Bool {
        guard let first = try sourceProperty(of: join.relationshipName, entity: join.entityName) as? NSRelationshipDescription,
              let second = try sourceProperty(of: join.inverseRelationshipName, entity: join.inverseEntityName) as? NSRelationshipDescription,
              let owner = first.entity, let old = source.joinTable(forRelationship: first.name, ofEntity: owner.entityName) else { return false }
        return old == join && first.name == join.relationshipName && second.name == join.inverseRelationshipName
            && sourceOf[join.entityName]?.entityName == join.entityName && sourceOf[join.inverseEntityName]?.entityName == join.inverseEntityName
    }

    private mutating func joinStatements(for join: JoinTable) throws(MigrationMappingError) -> [String] {
        var statements = [destination.createStatement(for: join)]
        let first = try sourceProperty(of: join.relationshipName, entity: join.entityName) as? NSRelationshipDescription
        let second = try sourceProperty(of: join.inverseRelationshipName, entity: join.inverseEntityName) as? NSRelationshipDescription
        let select: String
        var firstOrdered = false, secondOrdered = false
        if let first, let pairs = pairs(of: first) {
            select = "SELECT a AS s, b AS d, o AS fo, NULL AS so FROM \(pairs)"
            firstOrdered = first.isOrdered
        } else if let second, let pairs = pairs(of: second) {
            select = "SELECT b AS s, a AS d, NULL AS fo, o AS so FROM \(pairs)"
            secondOrdered = second.isOrdered
        } else {
            return statements
        }
        var columns = [join.sourceKeyColumn, join.destinationKeyColumn]
        var values = ["s", "d"]
        if let order = join.inverseOrderColumn {
            columns.append(order)
            values.append(secondOrdered ? "so" : "ROW_NUMBER() OVER (PARTITION BY d ORDER BY s)")
        }
        if let order = join.relationshipOrderColumn {
            columns.append(order)
            values.append(firstOrdered ? "fo" : "ROW_NUMBER() OVER (PARTITION BY s ORDER BY d)")
        }
        statements.append("INSERT INTO \(join.name) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM (\(select))")
        return statements
    }
}

/// SQL literals for default values, in Core Data's column encoding.
enum SQLLiteral {
    static func render(_ value: AttributeValue) -> String? {
        switch value {
        case .integer(let v): return String(v)
        case .boolean(let v): return v ? "1" : "0"
        case .double(let v): return v.isFinite ? "\(v)" : nil
        case .float(let v): return v.isFinite ? "\(Double(v))" : nil
        case .decimal(let v): return "\(NSDecimalNumber(decimal: v).doubleValue)"
        case .string(let v): return "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
        case .uri(let v): return "'" + v.absoluteString.replacingOccurrences(of: "'", with: "''") + "'"
        case .date(let v): return "\(v.timeIntervalSinceReferenceDate)"
        case .data(let v): return "X'" + v.map { String(format: "%02X", $0) }.joined() + "'"
        case .uuid(let v): return "X'" + withUnsafeBytes(of: v.uuid) { $0.map { String(format: "%02X", $0) }.joined() } + "'"
        }
    }
}
