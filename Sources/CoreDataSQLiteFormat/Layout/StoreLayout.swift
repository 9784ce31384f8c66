import CoreDataModel

/// How Core Data lays a model out in SQLite: entity numbers, one table per root entity with its columns in
/// Apple's order, and join tables for many-to-many relationships (store format reference §3–§5).
///
/// Reading a store, compiling predicates to SQL and creating a store all go through this one mapping, so that
/// table and column names are decided in exactly one place.
public struct StoreLayout: Sendable {
    public let numbering: EntityNumbering
    /// Root tables in entity-number order.
    public let tables: [EntityTable]
    public let joinTables: [JoinTable]
    /// To-many relationships with no to-many inverse and no to-one inverse, whose storage Core Data does not
    /// document (as `Entity.relationship`).
    public let unmappedRelationships: [String]
    private let tableIndexByEntity: [String: Int]
    private let columnsByEntity: [String: [String: PropertyColumns]]

    /// The columns that store one property.
    public struct PropertyColumns: Sendable, Hashable {
        public var value: String
        public var entityNumber: String?
        public var orderKey: String?
    }

    public init(model: NSManagedObjectModel) {
        let numbering = EntityNumbering(model: model)
        self.numbering = numbering
        var tables: [EntityTable] = []
        var tableIndexByEntity: [String: Int] = [:]
        var columnsByEntity: [String: [String: PropertyColumns]] = [:]
        let byName = model.entitiesByName
        let roots = model.entities.filter { $0.superentity == nil }
            .sorted { (numbering[$0.entityName] ?? 0) < (numbering[$1.entityName] ?? 0) }
        for root in roots {
            let members = root.selfAndDescendants
            let built = Self.buildTable(root: root, members: members, numbering: numbering, entitiesByName: byName)
            for member in members {
                tableIndexByEntity[member.entityName] = tables.count
                var columns: [String: PropertyColumns] = [:]
                for ancestor in Self.lineage(of: member) {
                    columns.merge(built.columnsByEntity[ancestor.entityName] ?? [:]) { _, own in own }
                }
                columnsByEntity[member.entityName] = columns
            }
            tables.append(built.table)
        }
        let joins = Self.buildJoinTables(model: model, numbering: numbering)
        self.tables = tables
        self.joinTables = joins.tables
        self.unmappedRelationships = joins.unmapped
        self.tableIndexByEntity = tableIndexByEntity
        self.columnsByEntity = columnsByEntity
    }

    /// The table that holds `entityName`'s rows (its root entity's table).
    public func table(forEntity entityName: String) -> EntityTable? {
        tableIndexByEntity[entityName].map { tables[$0] }
    }

    /// The columns of a property of `entityName` (inherited properties included); nil for properties without
    /// columns (transient, to-many, fetched).
    public func columns(forProperty propertyName: String, ofEntity entityName: String) -> PropertyColumns? {
        columnsByEntity[entityName]?[propertyName]
    }

    /// The join table of a many-to-many relationship, from either side.
    public func joinTable(forRelationship relationshipName: String, ofEntity entityName: String) -> JoinTable? {
        joinTables.first {
            ($0.entityName == entityName && $0.relationshipName == relationshipName)
                || ($0.inverseEntityName == entityName && $0.inverseRelationshipName == relationshipName)
        }
    }

    // MARK: Entity tables

    /// Column groups in the order Core Data declares them (§3.2).
    private enum ColumnGroup: Int, Comparable {
        case integer, real, decimal, text, uuid, blob
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        init?(_ type: NSAttributeType) {
            switch type {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
                self = .integer
            case .dateAttributeType, .doubleAttributeType, .floatAttributeType: self = .real
            case .decimalAttributeType: self = .decimal
            case .stringAttributeType, .URIAttributeType: self = .text
            case .UUIDAttributeType: self = .uuid
            case .binaryDataAttributeType, .transformableAttributeType: self = .blob
            case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType: return nil
            }
        }
    }

    private struct PendingColumn {
        var baseName: String
        var sqlType: String
        var role: StoreColumn.Role
        var group: ColumnGroup
        var entityName: String
        var propertyName: String
        var kind: PropertyColumnKind
    }

    private enum PropertyColumnKind { case value, entityNumber, orderKey }

    private static func buildTable(
        root: NSEntityDescription, members: [NSEntityDescription], numbering: EntityNumbering,
        entitiesByName: [String: NSEntityDescription]
    ) -> (table: EntityTable, columnsByEntity: [String: [String: PropertyColumns]]) {
        // Processing order: the root first, then subentities in entity-number order; within an entity, attributes
        // by name, then to-one relationships by name. Suffixes for colliding names follow this order.
        let processing = members.sorted { (numbering[$0.entityName] ?? 0) < (numbering[$1.entityName] ?? 0) }
        var pending: [PendingColumn] = []
        for entity in processing {
            // A property that re-declares an ancestor's (same name) keeps the ancestor's column: it is the same
            // property of this entity's objects, as Apple's stores show (Writer.age and Author.age share ZAGE).
            let inheritedNames = Set(entity.superentity?.allProperties.map(\.name) ?? [])
            let own = entity.ownProperties
                .filter { !inheritedNames.contains($0.name) }
                .sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
            for case let attribute as NSAttributeDescription in own where !attribute.isTransient || attribute is NSDerivedAttributeDescription {
                guard let group = ColumnGroup(attribute.attributeType), let sqlType = attribute.attributeType.sqliteColumnType else { continue }
                pending.append(PendingColumn(
                    baseName: "Z" + attribute.name.uppercased(), sqlType: sqlType,
                    role: .attribute(entity: entity.entityName, property: attribute.name), group: group,
                    entityName: entity.entityName, propertyName: attribute.name, kind: .value))
            }
            for case let relationship as NSRelationshipDescription in own where !relationship.isToMany && !relationship.isTransient {
                let upper = relationship.name.uppercased()
                pending.append(PendingColumn(
                    baseName: "Z" + upper, sqlType: "INTEGER",
                    role: .toOneKey(entity: entity.entityName, property: relationship.name), group: .integer,
                    entityName: entity.entityName, propertyName: relationship.name, kind: .value))
                if let destination = relationship.destinationEntity, !destination.subentities.isEmpty,
                   let destinationNumber = numbering[destination.entityName] {
                    pending.append(PendingColumn(
                        baseName: "Z\(destinationNumber)_" + upper, sqlType: "INTEGER",
                        role: .toOneEntityNumber(entity: entity.entityName, property: relationship.name), group: .integer,
                        entityName: entity.entityName, propertyName: relationship.name, kind: .entityNumber))
                }
                if let inverse = relationship.inverseRelationship, inverse.isToMany, inverse.isOrdered {
                    pending.append(PendingColumn(
                        baseName: "Z_FOK_" + upper, sqlType: "INTEGER",
                        role: .toOneOrderKey(entity: entity.entityName, property: relationship.name), group: .integer,
                        entityName: entity.entityName, propertyName: relationship.name, kind: .orderKey))
                }
            }
        }
        // Names that collide inside one table take numeric suffixes in processing order.
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        var names: [String] = []
        for column in pending {
            var name = column.baseName
            var suffix = 1
            while used.contains(name) {
                name = column.baseName + String(suffix)
                suffix += 1
            }
            used.insert(name)
            names.append(name)
        }
        // Declaration order: grouped by storage class, stable within a group (the processing order).
        let ordered = pending.indices.sorted { lhs, rhs in
            pending[lhs].group != pending[rhs].group ? pending[lhs].group < pending[rhs].group : lhs < rhs
        }
        var columns = [
            StoreColumn(name: "Z_PK", sqlType: "INTEGER", role: .primaryKey),
            StoreColumn(name: "Z_ENT", sqlType: "INTEGER", role: .entityNumber),
            StoreColumn(name: "Z_OPT", sqlType: "INTEGER", role: .optimisticLockVersion),
        ]
        var columnsByEntity: [String: [String: PropertyColumns]] = [:]
        for index in ordered {
            let column = pending[index]
            columns.append(StoreColumn(name: names[index], sqlType: column.sqlType, role: column.role))
        }
        for (index, column) in pending.enumerated() {
            var entry = columnsByEntity[column.entityName, default: [:]][column.propertyName]
                ?? PropertyColumns(value: names[index])
            switch column.kind {
            case .value: entry.value = names[index]
            case .entityNumber: entry.entityNumber = names[index]
            case .orderKey: entry.orderKey = names[index]
            }
            columnsByEntity[column.entityName, default: [:]][column.propertyName] = entry
        }
        let table = EntityTable(name: "Z" + root.entityName.uppercased(), rootEntityName: root.entityName, columns: columns)
        return (table, columnsByEntity)
    }

    private static func lineage(of entity: NSEntityDescription) -> [NSEntityDescription] {
        var chain: [NSEntityDescription] = []
        var current: NSEntityDescription? = entity
        while let node = current {
            chain.insert(node, at: 0)
            current = node.superentity
        }
        return chain
    }

    // MARK: Join tables

    private static func buildJoinTables(model: NSManagedObjectModel, numbering: EntityNumbering)
        -> (tables: [JoinTable], unmapped: [String])
    {
        var tables: [JoinTable] = []
        var unmapped: [String] = []
        var seen = Set<ObjectIdentifier>()
        let entities = model.entities.sorted { (numbering[$0.entityName] ?? 0) < (numbering[$1.entityName] ?? 0) }
        for entity in entities {
            let toMany = entity.ownProperties.compactMap { $0 as? NSRelationshipDescription }
                .filter { $0.isToMany && !$0.isTransient }
                .sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
            for relationship in toMany where !seen.contains(ObjectIdentifier(relationship)) {
                guard let inverse = relationship.inverseRelationship else {
                    unmapped.append("\(entity.entityName).\(relationship.name)")
                    continue
                }
                guard inverse.isToMany else { continue }  // one-to-many: the to-one side's key column carries it
                seen.insert(ObjectIdentifier(relationship))
                seen.insert(ObjectIdentifier(inverse))
                guard let inverseEntity = inverse.entity,
                      let a = numbering[entity.entityName], let b = numbering[inverseEntity.entityName] else { continue }
                // The table is named after the relationship declared on the lower-numbered entity.
                let (first, second, firstNumber, secondNumber) = a <= b
                    ? (relationship, inverse, a, b) : (inverse, relationship, b, a)
                let firstUpper = first.name.uppercased(), secondUpper = second.name.uppercased()
                tables.append(JoinTable(
                    name: "Z_\(firstNumber)\(firstUpper)",
                    entityName: first.entity?.entityName ?? "", relationshipName: first.name,
                    inverseEntityName: second.entity?.entityName ?? "", inverseRelationshipName: second.name,
                    sourceKeyColumn: "Z_\(firstNumber)\(secondUpper)",
                    destinationKeyColumn: "Z_\(secondNumber)\(firstUpper)",
                    relationshipOrderColumn: first.isOrdered ? "Z_FOK_\(secondNumber)\(firstUpper)" : nil,
                    inverseOrderColumn: second.isOrdered ? "Z_FOK_\(firstNumber)\(secondUpper)" : nil))
            }
        }
        return (tables, unmapped)
    }
}
