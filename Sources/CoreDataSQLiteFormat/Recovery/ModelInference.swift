import CoreDataModel
import Foundation
import SQLiteDatabase

/// Rebuilds a model from a store that carries no model cache, from `Z_PRIMARYKEY`, the tables, their columns and
/// indexes, join tables, and (where the schema cannot tell) the values themselves.
///
/// What cannot be known is said, never guessed silently: property names are recorded in upper case only, integer
/// widths and booleans share `INTEGER`, and optionality, defaults and delete rules are not stored at all.
public struct ModelInference {
    public struct Result {
        public var model: NSManagedObjectModel
        /// One sentence per thing the schema could not tell.
        public var notes: [String]
        /// `Entity.property` for every property whose name's case is unknown.
        public var namesOfUnknownCase: Set<String>
    }

    let store: SQLiteStoreFile

    public init(store: SQLiteStoreFile) {
        self.store = store
    }

    public func infer() throws(StoreFormatError) -> Result {
        do {
            return try inferThrowingSQLiteErrors()
        } catch let error as StoreFormatError {
            throw error
        } catch let error as SQLiteError {
            throw SQLiteStoreFile.describe(error, path: store.path)
        } catch {
            throw StoreFormatError(file: store.path, reason: "cannot infer its model (\(error))")
        }
    }

    private func inferThrowingSQLiteErrors() throws -> Result {
        let connection = store.connection
        var notes = ["the store has no model cache: entities come from Z_PRIMARYKEY and properties from the tables; "
                     + "pass --model for exact names, types and rules"]
        var unknownCase = Set<String>()
        let entries = store.primaryKeys.filter { $0.entityNumber < 16000 }
        // Each entity's direct subentities, found once: a store may list thousands of entities.
        let children = Dictionary(grouping: entries.filter { $0.superEntityNumber != 0 }, by: \.superEntityNumber)
            .mapValues { $0.map(\.entityNumber) }
        let byNumber = Dictionary(entries.map { ($0.entityNumber, $0) }, uniquingKeysWith: { first, _ in first })
        var entities: [Int: NSEntityDescription] = [:]
        for entry in entries {
            let entity = NSEntityDescription(name: entry.name)
            entity.superentityName = entry.superEntityNumber == 0 ? nil : byNumber[entry.superEntityNumber]?.name
            entities[entry.entityNumber] = entity
        }
        let tables = Set(try connection.tables())
        let roots = entries.filter { $0.superEntityNumber == 0 }
        for root in roots {
            let tableName = "Z" + root.name.uppercased()
            guard tables.contains(tableName) else {
                notes.append("entity \(root.name) has no table \(tableName)")
                continue
            }
            let hierarchy = descendants(of: root.entityNumber, children: children)
            let columns = try connection.columns(in: tableName)
            let indexedColumns = Set(try connection.indexes(on: tableName)
                .filter { $0.name == "\(tableName)_\($0.columns.first?.name ?? "")_INDEX" }
                .compactMap { $0.columns.first?.name })
            let columnNames = Set(columns.map(\.name))
            for column in columns where !["Z_PK", "Z_ENT", "Z_OPT"].contains(column.name) {
                if isCompanion(column.name, among: columnNames) { continue }
                let owner = try owningEntity(of: column.name, in: tableName, hierarchy: hierarchy, entities: entities)
                guard let ownerEntity = entities[owner] else { continue }
                let propertyName = String(column.name.dropFirst()).lowercased()
                // The layout names a property's column "Z" + its name in upper case; a column that no name maps
                // back to (non-ASCII case changes such as ß → SS) could not be read or written, so it is left out.
                guard Self.sqliteNamesMatch("Z" + propertyName.uppercased(), column.name) else {
                    notes.append("\(tableName).\(column.name) was left out: no property name maps to that column")
                    continue
                }
                if column.defaultValueSQL != nil || column.isNotNull {
                    notes.append("\(tableName).\(column.name) has a NOT NULL or DEFAULT clause, which Core Data never writes: it was added outside Core Data")
                }
                if column.declaredType.uppercased() == "INTEGER", indexedColumns.contains(column.name) {
                    let relationship = toOneRelationship(
                        column: column.name, table: tableName, columnNames: columnNames, entries: entries, propertyName: propertyName)
                    if relationship.destinationEntityName == "?" {
                        notes.append("\(tableName).\(column.name) looks like a to-one relationship, but its destination entity cannot be told")
                    }
                    ownerEntity.addProperty(relationship)
                } else {
                    let type = try attributeType(of: column, in: tableName)
                    let attribute = NSAttributeDescription(name: propertyName, type: type)
                    attribute.isOptional = true
                    ownerEntity.addProperty(attribute)
                }
                unknownCase.insert("\(ownerEntity.entityName).\(propertyName)")
            }
        }
        for table in tables.sorted() where table.hasPrefix("Z_") && !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(table) {
            if let pair = try joinTableRelationships(table, entries: entries) {
                entities[pair.sourceNumber]?.addProperty(pair.relationship)
                entities[pair.destinationNumber]?.addProperty(pair.inverse)
                unknownCase.insert("\(entities[pair.sourceNumber]?.entityName ?? "").\(pair.relationship.name)")
                unknownCase.insert("\(entities[pair.destinationNumber]?.entityName ?? "").\(pair.inverse.name)")
            }
        }
        let model = NSManagedObjectModel(entities: entries.compactMap { entities[$0.entityNumber] })
        model.sourceDescription = "\(store.path) (inferred)"
        model.versionIdentifierStrings = store.metadata.versionIdentifiers
        if unknownCase.contains(where: { _ in true }) {
            notes.append("property names are stored in upper case only: their original case is unknown (shown with ?)")
        }
        if entries.isEmpty { notes.append("Z_PRIMARYKEY lists no entities") }
        return Result(model: model, notes: notes, namesOfUnknownCase: unknownCase)
    }

    // MARK: Columns

    /// `Z<n>_<REL>` and `Z_FOK_<REL>` accompany the key column `Z<REL>` of a to-one relationship.
    private func isCompanion(_ name: String, among columns: Set<String>) -> Bool {
        if name.hasPrefix("Z_FOK_") { return columns.contains("Z" + name.dropFirst("Z_FOK_".count)) }
        guard name.hasPrefix("Z"), let underscore = name.firstIndex(of: "_") else { return false }
        let number = name[name.index(after: name.startIndex)..<underscore]
        return !number.isEmpty && number.allSatisfy(\.isNumber) && columns.contains("Z" + name[name.index(after: underscore)...])
    }

    /// The lowest common ancestor of the entities whose rows use the column; the root when no row does.
    private func owningEntity(of column: String, in table: String, hierarchy: [Int], entities: [Int: NSEntityDescription]) throws -> Int {
        guard hierarchy.count > 1 else { return hierarchy[0] }
        let quotedTable = Connection.quoteIdentifier(table), quotedColumn = Connection.quoteIdentifier(column)
        let users = try store.connection.query("SELECT DISTINCT Z_ENT FROM \(quotedTable) WHERE \(quotedColumn) IS NOT NULL")
            .compactMap { $0.first?.int64Value.map(Int.init) }
            .filter { hierarchy.contains($0) }
        guard var common = users.first else { return hierarchy[0] }
        let parents = Dictionary(store.primaryKeys.map { ($0.entityNumber, $0.superEntityNumber) }, uniquingKeysWith: { a, _ in a })
        func ancestors(_ number: Int) -> [Int] {
            var chain = [number]
            while let parent = parents[chain.last!], parent != 0 { chain.append(parent) }
            return chain
        }
        for user in users.dropFirst() {
            let chain = Set(ancestors(user))
            common = ancestors(common).first { chain.contains($0) } ?? hierarchy[0]
        }
        return common
    }

    private func toOneRelationship(column: String, table: String, columnNames: Set<String>, entries: [PrimaryKeyEntry],
                                   propertyName: String) -> NSRelationshipDescription {
        let suffix = String(column.dropFirst())
        // A companion `Z<n>_<REL>` names the destination's entity number.
        let companion = columnNames.first { name in
            name.hasSuffix("_" + suffix) && name.dropLast(suffix.count + 1).dropFirst().allSatisfy(\.isNumber)
                && name.count > suffix.count + 2
        }
        var destination = companion
            .flatMap { Int($0.dropFirst().prefix { $0.isNumber }) }
            .flatMap { number in entries.first { $0.entityNumber == number }?.name }
        if destination == nil {
            destination = entries.first { $0.name.uppercased() == suffix }?.name
        }
        let relationship = NSRelationshipDescription(name: propertyName, destinationEntityName: destination ?? "?")
        relationship.maxCount = 1
        relationship.isOptional = true
        return relationship
    }

    /// The attribute type a column's declared type and values suggest.
    private func attributeType(of column: ColumnInfo, in table: String) throws -> NSAttributeType {
        switch column.declaredType.uppercased() {
        case "INTEGER": return .integer64AttributeType
        case "TIMESTAMP": return .dateAttributeType
        case "FLOAT", "REAL", "DOUBLE": return .doubleAttributeType
        case "DECIMAL", "NUMERIC": return .decimalAttributeType
        case "BLOB":
            let quotedTable = Connection.quoteIdentifier(table), quotedColumn = Connection.quoteIdentifier(column.name)
            let samples = try store.connection.query(
                "SELECT \(quotedColumn) FROM \(quotedTable) WHERE \(quotedColumn) IS NOT NULL LIMIT 32")
                .compactMap { $0.first?.blobValue }
            if !samples.isEmpty, samples.allSatisfy({ $0.count == 16 }) { return .UUIDAttributeType }
            if !samples.isEmpty, samples.allSatisfy({ $0.starts(with: Array("bplist00".utf8)) }) { return .transformableAttributeType }
            return .binaryDataAttributeType
        default: return .stringAttributeType
        }
    }

    // MARK: Join tables

    private struct JoinPair {
        var sourceNumber: Int, destinationNumber: Int
        var relationship: NSRelationshipDescription, inverse: NSRelationshipDescription
    }

    /// `Z_<a><R1>( Z_<a><R2>, Z_<b><R1>, [Z_FOK_<a><R2>], [Z_FOK_<b><R1>] )`: r1 on entity a, r2 on entity b.
    private func joinTableRelationships(_ table: String, entries: [PrimaryKeyEntry]) throws -> JoinPair? {
        let columns = try store.connection.columns(in: table).map(\.name)
        let keyColumns = columns.filter { !$0.hasPrefix("Z_FOK_") }
        guard keyColumns.count == 2 else { return nil }
        func split(_ name: String) -> (Int, String)? {
            let body = name.dropFirst(2)
            let digits = body.prefix { $0.isNumber }
            guard name.hasPrefix("Z_"), let number = Int(digits) else { return nil }
            return (number, String(body.dropFirst(digits.count)))
        }
        guard let (tableNumber, r1) = split(table), let (a, r2) = split(keyColumns[0]), let (b, r1Again) = split(keyColumns[1]),
              a == tableNumber, r1Again == r1,
              let sourceName = entries.first(where: { $0.entityNumber == a })?.name,
              let destinationName = entries.first(where: { $0.entityNumber == b })?.name
        else { return nil }
        let relationship = NSRelationshipDescription(name: r1.lowercased(), destinationEntityName: destinationName)
        let inverse = NSRelationshipDescription(name: r2.lowercased(), destinationEntityName: sourceName)
        relationship.inverseRelationshipName = inverse.name
        inverse.inverseRelationshipName = relationship.name
        relationship.isOrdered = columns.contains("Z_FOK_\(b)\(r1)")
        inverse.isOrdered = columns.contains("Z_FOK_\(a)\(r2)")
        return JoinPair(sourceNumber: a, destinationNumber: b, relationship: relationship, inverse: inverse)
    }

    /// `number` and every entity below it, each once, parents before children; a cycle in a damaged
    /// `Z_PRIMARYKEY` ends where it comes back to an entity already listed.
    private func descendants(of number: Int, children: [Int: [Int]]) -> [Int] {
        var listed: [Int] = [], seen: Set<Int> = [], pending = [number]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            listed.append(next)
            pending.append(contentsOf: (children[next] ?? []).reversed())
        }
        return listed
    }

    /// Whether SQLite takes two identifiers for the same name: it folds ASCII letters only.
    static func sqliteNamesMatch(_ a: String, _ b: String) -> Bool {
        func folded(_ text: String) -> [Unicode.Scalar] {
            text.unicodeScalars.map { ("a"..."z").contains($0) ? Unicode.Scalar($0.value - 32)! : $0 }
        }
        return folded(a) == folded(b)
    }
}
