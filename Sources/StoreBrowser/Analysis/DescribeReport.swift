import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import StoreAccess

/// Per-attribute statistics over the whole filtered entity, computed by SQLite in one scan: how many objects have
/// a value, how many are nil, how many distinct values there are, and the least and greatest.
struct DescribeReport {
    struct Row {
        var key: String
        var type: NSAttributeType
        var values: Int
        var nulls: Int
        var distinct: Int
        var minimum: String
        var maximum: String
    }

    let total: Int
    let rows: [Row]

    /// The one aggregate query of a report, built on the loop and run wherever the caller likes (the browser runs it
    /// on the background counter's connection, off its event loop).
    struct Plan {
        let attributes: [NSAttributeDescription]
        let query: SQLQuery

        init(query: TableQuery, model: NSManagedObjectModel) throws {
            let compiler = PredicateSQLCompiler(model: model)
            let entity = query.entity
            attributes = entity.allProperties.compactMap { $0 as? NSAttributeDescription }
                .filter { !$0.isTransient && compiler.layout.columns(forProperty: $0.name, ofEntity: entity.entityName) != nil }
            let base: SQLQuery
            do {
                base = try compiler.fetch(entityName: entity.entityName, predicate: query.predicate?.predicateNode)
            } catch {
                throw StoreAccessError(error.description)
            }
            var selections = ["COUNT(*)"]
            for attribute in attributes {
                let column = Connection.quoteIdentifier(compiler.layout.columns(forProperty: attribute.name, ofEntity: entity.entityName)!.value)
                let ordered = DescribeReport.hasOrder(attribute.attributeType)
                // Text takes the least and greatest in the order a sort shows (NSSortDescriptor's compare:), not in
                // SQLite's byte order (issue 21).
                let collated = attribute.attributeType == .stringAttributeType
                    ? column + " COLLATE " + PredicateSQLFunctions.collationName(for: .compare) : column
                selections += ["COUNT(\(column))", "COUNT(DISTINCT \(column))",
                               ordered ? "MIN(\(collated))" : "NULL", ordered ? "MAX(\(collated))" : "NULL"]
            }
            let sql = "SELECT " + selections.joined(separator: ", ") + " FROM (" + base.sql + ")"
            self.query = SQLQuery(sql: sql, bindings: base.bindings, resultColumns: [])
        }
    }

    /// The report from the rows the plan's query returned.
    init(plan: Plan, rows result: [[SQLiteValue]]) throws {
        guard let row = result.first else { throw StoreAccessError("describe returned no row") }
        total = Int(row[0].int64Value ?? 0)
        var rows: [Row] = []
        for (index, attribute) in plan.attributes.enumerated() {
            let offset = 1 + index * 4
            let values = Int(row[offset].int64Value ?? 0)
            rows.append(Row(key: attribute.name, type: attribute.attributeType, values: values, nulls: total - values,
                            distinct: Int(row[offset + 1].int64Value ?? 0),
                            minimum: Self.text(row[offset + 2], type: attribute.attributeType),
                            maximum: Self.text(row[offset + 3], type: attribute.attributeType)))
        }
        self.rows = rows
    }

    func lines() -> [String] {
        let keyWidth = max(9, rows.map { $0.key.count }.max() ?? 0)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        var lines = ["\(NumberText.grouped(total)) objects", "",
                     pad("attribute", keyWidth) + "  " + pad("type", 10) + pad("values", 11, right: true)
                        + pad("nil", 11, right: true) + pad("distinct", 11, right: true) + "  min … max"]
        for row in rows {
            lines.append(pad(row.key, keyWidth) + "  " + pad(row.type.xcodeName, 10)
                         + pad(NumberText.grouped(row.values), 11, right: true) + pad(NumberText.grouped(row.nulls), 11, right: true)
                         + pad(NumberText.grouped(row.distinct), 11, right: true)
                         + (row.minimum.isEmpty && row.maximum.isEmpty ? "" : "  \(row.minimum) … \(row.maximum)"))
        }
        return lines
    }

    static func hasOrder(_ type: NSAttributeType) -> Bool {
        switch type {
        case .binaryDataAttributeType, .transformableAttributeType, .UUIDAttributeType, .objectIDAttributeType,
             .compositeAttributeType, .undefinedAttributeType:
            false
        default:
            true
        }
    }

    /// A stored value in the user's terms: dates from reference-date seconds, booleans as true/false.
    private static func text(_ value: SQLiteValue, type: NSAttributeType) -> String {
        if value.isNull { return "" }
        switch type {
        case .dateAttributeType:
            return value.doubleValue.map { ValueFormatting.text(Date(timeIntervalSinceReferenceDate: $0)) } ?? ""
        case .booleanAttributeType:
            return value.int64Value.map { $0 != 0 ? "true" : "false" } ?? ""
        case .stringAttributeType, .URIAttributeType:
            return String((value.stringValue ?? "").prefix(30))
        default:
            if let integer = value.int64Value, value.type == .integer { return String(integer) }
            return value.doubleValue.map { ValueFormatting.text($0) } ?? ""
        }
    }
}
