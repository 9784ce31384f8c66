import CoreDataModel
import SQLiteDatabase

/// A many-to-many relationship's join table seen from one side: which column holds this side's keys, which the
/// other side's, and which the order of this side's destinations (all as SQL).
package struct JoinSides: Sendable, Hashable {
    package var table: String
    /// Holds the keys of the objects whose relationship this is.
    package var mine: String
    /// Holds the keys of their destinations.
    package var theirs: String
    /// The position of each destination in the relationship, when it is ordered.
    package var order: String?
}

extension StoreSQL {
    /// The join table of `relationshipName` of `entityName`, from that side. A join table is named after the
    /// relationship declared on the lower-numbered entity; its source key column holds that entity's keys. The
    /// side is decided by which of the table's two relationships matched, never by the name alone: a relationship
    /// and its inverse may share a name (`A.links` and `B.links`).
    package func joinSides(relationshipName: String, entityName: String) -> JoinSides? {
        for join in layout.joinTables {
            let declaredHere: Bool
            if join.entityName == entityName && join.relationshipName == relationshipName {
                declaredHere = true
            } else if join.inverseEntityName == entityName && join.inverseRelationshipName == relationshipName {
                declaredHere = false
            } else {
                continue
            }
            return JoinSides(
                table: join.sqlName,
                mine: Self.name(declaredHere ? join.sourceKeyColumn : join.destinationKeyColumn),
                theirs: Self.name(declaredHere ? join.destinationKeyColumn : join.sourceKeyColumn),
                order: (declaredHere ? join.relationshipOrderColumn : join.inverseOrderColumn).map(Self.name))
        }
        return nil
    }

    /// How a to-many relationship is stored: in a join table, or in the key column of its to-one inverse.
    package enum ToManyStorage: Sendable {
        case joinTable(JoinSides)
        /// The inverse's key column and order key column (ordered relationships) on the destination's table.
        case inverseColumn(key: String, orderKey: String?, table: EntityTable)
    }

    /// Where `relationship` (a to-many of its entity) is stored; nil when it has neither a join table nor a to-one
    /// inverse (Apple's layout for those is unknown).
    package func toManyStorage(_ relationship: NSRelationshipDescription) -> ToManyStorage? {
        guard let source = relationship.entity else { return nil }
        if let sides = joinSides(relationshipName: relationship.name, entityName: source.entityName) { return .joinTable(sides) }
        guard let inverse = relationship.inverseRelationship, !inverse.isToMany, let owner = inverse.entity,
              let columns = layout.columns(forProperty: inverse.name, ofEntity: owner.entityName),
              let table = layout.table(forEntity: owner.entityName) else { return nil }
        return .inverseColumn(key: Self.name(columns.value), orderKey: relationship.isOrdered ? columns.orderKey.map(Self.name) : nil,
                              table: table)
    }

    /// The destinations of one object's to-many relationship, in order: `Z_PK` and `Z_ENT` of each (a left join
    /// from the join table, so a key that leads to no row shows with a NULL `Z_ENT` instead of vanishing). One
    /// binding: the source's primary key.
    package func destinations(of relationship: NSRelationshipDescription) -> String? {
        guard let destination = relationship.destinationEntity, let destinationTable = layout.table(forEntity: destination.entityName),
              let storage = toManyStorage(relationship) else { return nil }
        switch storage {
        case .joinTable(let join):
            let order = join.order.map { "j.\($0), " } ?? ""
            return "SELECT j.\(join.theirs), d.Z_ENT FROM \(join.table) j LEFT JOIN \(destinationTable.sqlName) d "
                + "ON d.Z_PK = j.\(join.theirs) WHERE j.\(join.mine) = ? ORDER BY \(order)j.\(join.theirs)"
        case .inverseColumn(let key, let orderKey, _):
            var filter = "d.\(key) = ?"
            if let entity = entityFilter(alias: "d", entityName: destination.entityName, policy: .wholeTreeToo) {
                filter += " AND " + entity
            }
            let order = orderKey.map { "d.\($0), " } ?? ""
            return "SELECT d.Z_PK, d.Z_ENT FROM \(destinationTable.sqlName) d WHERE \(filter) ORDER BY \(order)d.Z_PK"
        }
    }

    /// The destinations of many sources' to-many relationship with their columns (`selectList`, over the alias
    /// `d`), then the source's key, grouped by source in relationship order. `count` bindings: the sources' keys.
    package func prefetch(_ relationship: NSRelationshipDescription, selectList: [String], table: EntityTable, count: Int) -> String? {
        guard let storage = toManyStorage(relationship) else { return nil }
        let columns = selectList.joined(separator: ", ")
        let placeholders = Self.placeholders(count)
        switch storage {
        case .joinTable(let join):
            let order = join.order.map { "j.\($0), " } ?? ""
            return "SELECT \(columns), j.\(join.mine) FROM \(join.table) j JOIN \(table.sqlName) d ON d.Z_PK = j.\(join.theirs) "
                + "WHERE j.\(join.mine) IN (\(placeholders)) ORDER BY j.\(join.mine), \(order)d.Z_PK"
        case .inverseColumn(let key, let orderKey, _):
            let order = orderKey.map { "d.\($0), " } ?? ""
            return "SELECT \(columns), d.\(key) FROM \(table.sqlName) d WHERE d.\(key) IN (\(placeholders)) "
                + "ORDER BY d.\(key), \(order)d.Z_PK"
        }
    }

    // MARK: Writing relationships

    /// The statements that change one side's join-table rows: remove a pair, add a pair (duplicates ignored:
    /// both sides of a changed pair may write it), set a pair's position. Bindings: (source, destination) for
    /// the first two, (position, source, destination) for the order.
    package struct JoinWrites: Sendable, Hashable {
        package var delete: String
        package var insert: String
        package var order: String?
    }

    package func joinWrites(_ sides: JoinSides) -> JoinWrites {
        JoinWrites(
            delete: "DELETE FROM \(sides.table) WHERE \(sides.mine) = ? AND \(sides.theirs) = ?",
            insert: "INSERT OR IGNORE INTO \(sides.table) (\(sides.mine), \(sides.theirs)) VALUES (?, ?)",
            order: sides.order.map { "UPDATE \(sides.table) SET \($0) = ? WHERE \(sides.mine) = ? AND \(sides.theirs) = ?" })
    }

    /// `UPDATE <table> SET <orderKey> = ? WHERE Z_PK = ?`: an object's position in an ordered one-to-many.
    package func orderKeyUpdate(_ relationship: NSRelationshipDescription) -> String? {
        guard case .inverseColumn(_, let orderKey?, let table)? = toManyStorage(relationship) else { return nil }
        return "UPDATE \(table.sqlName) SET \(orderKey) = ? WHERE Z_PK = ?"
    }

    /// `DELETE FROM <join> WHERE <column> = ?` for every join-table column that holds keys of `entityName`'s
    /// objects (its own relationships' and its ancestors'): the rows that go with a deleted object.
    package func joinRowDeletes(entityName: String) -> [String] {
        guard let number = layout.numbering[entityName] else { return [] }
        func isKind(of other: String) -> Bool { layout.numbering.range(of: other)?.contains(number) ?? false }
        var statements: [String] = []
        for join in layout.joinTables {
            if isKind(of: join.entityName) {
                statements.append("DELETE FROM \(join.sqlName) WHERE \(Self.name(join.sourceKeyColumn)) = ?")
            }
            if isKind(of: join.inverseEntityName) {
                statements.append("DELETE FROM \(join.sqlName) WHERE \(Self.name(join.destinationKeyColumn)) = ?")
            }
        }
        return statements
    }

    // MARK: Writing rows

    /// `INSERT INTO <table> (Z_PK, Z_ENT, Z_OPT, <columns>) VALUES (?, …)`.
    package func insert(into table: EntityTable, columns: [String]) -> String {
        let all = ["Z_PK", "Z_ENT", "Z_OPT"] + columns
        return "INSERT INTO \(table.sqlName) (\(all.map(Self.name).joined(separator: ", "))) VALUES (\(Self.placeholders(all.count)))"
    }

    /// `UPDATE <table> SET <column> = ?, …, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?`: optimistic locking,
    /// the row's version advancing with every update.
    package func update(_ table: EntityTable, columns: [String]) -> String {
        let assignments = columns.map { "\(Self.name($0)) = ?" } + ["Z_OPT = Z_OPT + 1"]
        return "UPDATE \(table.sqlName) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
    }

    /// `DELETE FROM <table> WHERE Z_PK = ? AND Z_OPT = ?`.
    package func delete(from table: EntityTable) -> String {
        "DELETE FROM \(table.sqlName) WHERE Z_PK = ? AND Z_OPT = ?"
    }
}
