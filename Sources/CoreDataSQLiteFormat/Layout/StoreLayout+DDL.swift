/// The DDL Core Data writes for a layout, verbatim in spacing and order (store format reference §2, §3, §5, §6).
extension StoreLayout {
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
}
