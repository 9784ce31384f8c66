import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase

extension NSSQLiteStore {
    /// Dictionary results: the requested properties and aggregate expressions of each row (or group), computed
    /// by SQLite (`GROUP BY`, `HAVING`, `DISTINCT`), never by loading objects. Every row shares one key table.
    public func executeDictionaryFetch(_ fetch: ResolvedFetch, _ shape: DictionaryShape) throws -> [FetchedDictionary] {
        // Key paths through to-one relationships share the query's joins.
        let keyPaths = (shape.columns + shape.groupBy).compactMap { column -> String? in
            if case .keyPath(_, let path) = column { return path }
            return nil
        }
        var filtered = fetch
        if shape.having != nil {
            // HAVING is evaluated on the grouped rows, so the limits apply after it.
            filtered.fetchLimit = 0
            filtered.fetchOffset = 0
        }
        let (sql, bindings, reader) = try dictionaryStatement(filtered, shape, keyPaths: keyPaths)
        var rows = try run(sql, bindings) { statement in
            var rows: [FetchedDictionary] = []
            try statement.forEachRow { row in rows.append(reader.read(row)) }
            return rows
        }
        if let having = shape.having {
            rows = try rows.filter { try DictionaryShape.row($0, passes: having) }
            rows = Array(rows.dropFirst(fetch.fetchOffset))
            if fetch.fetchLimit > 0 { rows = Array(rows.prefix(fetch.fetchLimit)) }
        }
        return rows
    }

    /// Dictionary rows handed to `body` one at a time as SQLite steps through them, none kept: one statement
    /// however many rows, in flat memory. Only for fetches without a `havingPredicate` (which filters the
    /// finished rows); `body` runs under the coordinator's lock, so it must not use the coordinator.
    func enumerateDictionaries(_ fetch: ResolvedFetch, _ shape: DictionaryShape, _ body: (FetchedDictionary) throws -> Void) throws {
        precondition(shape.having == nil, "a havingPredicate filters finished rows; use executeDictionaryFetch")
        let keyPaths = (shape.columns + shape.groupBy).compactMap { column -> String? in
            if case .keyPath(_, let path) = column { return path }
            return nil
        }
        let (sql, bindings, reader) = try dictionaryStatement(fetch, shape, keyPaths: keyPaths)
        try run(sql, bindings) { statement in
            try statement.forEachRow { row in try body(reader.read(row)) }
        }
    }

    /// The SQL of a dictionary fetch, its bindings, and the reader of its rows.
    private func dictionaryStatement(_ fetch: ResolvedFetch, _ shape: DictionaryShape, keyPaths: [String]) throws
        -> (sql: String, bindings: [SQLiteValue], reader: DictionaryRowReader)
    {
        let query = try statement(for: fetch, columns: keyPaths)
        let keyPathSQL = Dictionary(zip(keyPaths, query.columnTerms), uniquingKeysWith: { first, _ in first })
        let selected = try shape.columns.map { try sqlColumn($0, entity: fetch.entity, keyPathSQL: keyPathSQL) }
        let grouped = try shape.groupBy.map { try sqlColumn($0, entity: fetch.entity, keyPathSQL: keyPathSQL).sql }
        let sql = query.dictionaries(selected.map(\.sql), distinct: shape.distinct, groupBy: grouped)
        return (sql, query.bindings, DictionaryRowReader(columns: selected))
    }

    /// A selected column: its SQL and how to read it back.
    struct SelectedColumn {
        var name: String
        var sql: String
        /// The general decoder: any storage class, any type; nil leaves the key out.
        var decode: (borrowing Row, Int) -> Any?
        /// The attribute type whose usual storage class the row reader reads directly, if any.
        var directType: DirectlyReadType?

        init(name: String, sql: String, directType: DirectlyReadType? = nil, decode: @escaping (borrowing Row, Int) -> Any?) {
            self.name = name
            self.sql = sql
            self.decode = decode
            self.directType = directType
        }
    }

    private func sqlColumn(_ column: DictionaryShape.Column, entity: NSEntityDescription, keyPathSQL: [String: String]) throws -> SelectedColumn {
        switch column {
        case .property(let property):
            return try propertyColumn(property, entity: entity, name: property.name)
        case .keyPath(let name, let path):
            if let sql = keyPathSQL[path], let column = Self.collectionOperatorColumn(name: name, sql: sql, path: path, from: entity) {
                return column
            }
            guard let sql = keyPathSQL[path], let attribute = Self.attribute(atKeyPath: path, from: entity) else {
                throw CoreDataError(.persistentStoreOperation, "\(entity.entityName) has no attribute at key path \(path)")
            }
            return SelectedColumn(name: name, sql: sql, directType: DirectlyReadType(attribute.attributeType),
                                  decode: Self.valueDecoder(for: attribute))
        case .expression(let name, let expression, let resultType):
            return try expressionColumn(expression, entity: entity, name: name, resultType: resultType)
        }
    }

    private func propertyColumn(_ property: NSPropertyDescription, entity: NSEntityDescription, name: String) throws -> SelectedColumn {
        guard let columns = layout.columns(forProperty: property.name, ofEntity: entity.entityName) else {
            throw CoreDataError(.persistentStoreOperation, "\(entity.entityName).\(property.name) is not stored, so it cannot be fetched as a dictionary value")
        }
        if let attribute = property as? NSAttributeDescription {
            return SelectedColumn(name: name, sql: StoreSQL.column(columns.value, alias: "t0"), directType: DirectlyReadType(attribute.attributeType),
                                  decode: Self.valueDecoder(for: attribute))
        }
        guard let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity else {
            throw CoreDataError(.persistentStoreOperation, "\(entity.entityName).\(property.name) cannot be fetched as a dictionary value")
        }
        // A to-one relationship comes back as the destination's object ID, as in Core Data.
        let store = InternedStoreIdentifier.intern(storeIdentifier)
        return SelectedColumn(name: name, sql: StoreSQL.column(columns.value, alias: "t0")) { row, index in
            NSManagedObjectID(entity: destination, store: store, primaryKey: row.int64(at: index))
        }
    }

    /// Reads a column of `attribute` as the `Any` a dictionary result holds, through `SQLiteColumnDecoding`, which
    /// converts values of any storage class. (`DictionaryRowReader` reads the common types stored in their usual
    /// storage class itself, and comes here for everything else, so both paths give the same value.)
    static func valueDecoder(for attribute: NSAttributeDescription) -> (borrowing Row, Int) -> Any? {
        let type = attribute.attributeType
        return { row, index in
            if case .attribute(let value) = SQLiteColumnDecoding.decode(row, at: index, as: attribute, type: type) { return value.anyValue }
            return nil
        }
    }

    /// The attribute a key path through to-one relationships ends at.
    static func attribute(atKeyPath path: String, from entity: NSEntityDescription) -> NSAttributeDescription? {
        var current = entity
        let parts = path.split(separator: ".").map(String.init)
        for (index, part) in parts.enumerated() {
            guard let property = current.propertiesByName[part] else { return nil }
            if index == parts.count - 1 { return property as? NSAttributeDescription }
            guard let relationship = property as? NSRelationshipDescription, !relationship.isToMany,
                  let destination = relationship.destinationEntity else { return nil }
            current = destination
        }
        return nil
    }

    /// Aggregates over an attribute (`count:`, `sum:`, `average:`, `min:`, `max:`) and plain key paths.
    private func expressionColumn(_ expression: ExpressionNode, entity: NSEntityDescription, name: String,
                                  resultType: NSAttributeType) throws -> SelectedColumn {
        switch expression {
        case .evaluatedObject:
            // The row's object ID (Apple's `NSExpression.expressionForEvaluatedObject()`, or "objectID" among the
            // names). Rows of subentities name their entity by Z_ENT, packed above the key so one column carries both.
            let store = InternedStoreIdentifier.intern(storeIdentifier)
            guard !entity.subentities.isEmpty else {
                return SelectedColumn(name: name, sql: "t0.Z_PK") { row, index in
                    NSManagedObjectID(entity: entity, store: store, primaryKey: row.int64(at: index))
                }
            }
            return SelectedColumn(name: name, sql: "((t0.Z_ENT << 40) | t0.Z_PK)") { [self] row, index in
                let packed = row.int64(at: index)
                return NSManagedObjectID(entity: self.entity(number: Int(packed >> 40)) ?? entity, store: store,
                                         primaryKey: packed & (1 << 40 - 1))
            }
        case .keyPath(let key):
            guard let property = entity.propertiesByName[key] else {
                throw CoreDataError(.persistentStoreOperation, "\(entity.entityName) has no property \(key) (in expression \(name))")
            }
            return try propertyColumn(property, entity: entity, name: name)
        case .function(let function, let arguments):
            let aggregates = ["count:": "COUNT", "sum:": "SUM", "average:": "AVG", "min:": "MIN", "max:": "MAX"]
            guard let sqlFunction = aggregates[function], arguments.count == 1 else {
                throw CoreDataError(.persistentStoreOperation, "the expression \(expression.predicateFormat) cannot be computed by the store")
            }
            let inner: String
            var attribute: NSAttributeDescription?
            switch arguments[0] {
            case .keyPath(let key):
                guard let columns = layout.columns(forProperty: key, ofEntity: entity.entityName) else {
                    throw CoreDataError(.persistentStoreOperation, "\(entity.entityName).\(key) is not a stored property (in \(expression.predicateFormat))")
                }
                inner = StoreSQL.column(columns.value, alias: "t0")
                attribute = entity.attributesByName[key]
            case .evaluatedObject:
                inner = "t0.Z_PK"
            default:
                throw CoreDataError(.persistentStoreOperation, "the expression \(expression.predicateFormat) cannot be computed by the store")
            }
            let decodeAs = sqlFunction == "MIN" || sqlFunction == "MAX" ? attribute : nil
            return SelectedColumn(name: name, sql: "\(sqlFunction)(\(inner))") { row, index in
                if let decodeAs, case .attribute(let value) = SQLiteColumnDecoding.decode(row, at: index, as: decodeAs) {
                    return value.anyValue
                }
                switch row.columnType(at: index) {
                case .integer:
                    // A sum or average declared decimal (`expressionResultType = .decimalAttributeType`, as code that sums
                    // a Decimal attribute declares it) is a decimal, as Apple's `NSDecimalNumber`.
                    if resultType == .decimalAttributeType { return Decimal(row.int64(at: index)) }
                    return resultType == .doubleAttributeType ? Double(row.int64(at: index)) : row.int64(at: index) as Any
                case .real:
                    let value = row.double(at: index)
                    if resultType == .decimalAttributeType { return Decimal(value) }
                    return resultType.isInteger ? Int64(value) as Any : value as Any
                default: return row.string(at: index)
                }
            }
        default:
            throw CoreDataError(.persistentStoreOperation, "the expression \(expression.predicateFormat) cannot be computed by the store")
        }
    }
}
