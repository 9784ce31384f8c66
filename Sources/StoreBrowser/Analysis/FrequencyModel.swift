import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess

/// The frequency table of one column over the whole filtered entity, computed by the store with GROUP BY (never
/// from the loaded rows): each distinct value, its count, and its share.
struct FrequencyModel {
    struct Row {
        /// The value as the store returned it (nil for NULL), used to drill in.
        var value: Any?
        var text: String
        var count: Int
    }

    let key: String
    let entity: NSEntityDescription
    let basePredicate: Predicates.NSPredicate?
    let rows: [Row]
    let total: Int
    var selection = 0
    var top = 0

    /// The most frequent values first, then by value; at most `limit` groups.
    init(key: String, query: TableQuery, context: NSManagedObjectContext, labels: ObjectLabel = ObjectLabel(),
         limit: Int = 10_000) throws {
        self.key = key
        self.entity = query.entity
        self.basePredicate = query.predicate
        let countExpression = Predicates.NSExpression(forFunction: "count:", arguments: [Predicates.NSExpression(forKeyPath: key)])
        let request = NSFetchRequest<FetchedDictionary>(entityName: query.entity.entityName)
        request.resultType = .dictionaryResultType
        request.predicate = query.predicate
        request.propertiesToFetch = [key, NSExpressionDescription(name: "count", expression: countExpression,
                                                                  resultType: .integer64AttributeType)]
        request.propertiesToGroupBy = [key]
        let groups = try context.performAndWait { try context.fetch(request) }
        // count(key) skips NULL; the NULL group is counted separately so that it shows its real size.
        // A to-one's destinations by their labels, as the table names them, read in one fetch per entity.
        let ids = groups.compactMap { $0[key] as? NSManagedObjectID }
        let names = ids.isEmpty ? [:] : try context.performAndWait { try labels.labels(for: ids, in: context) }
        var rows: [Row] = groups.map { group in
            let value = group[key]
            let text = (value as? NSManagedObjectID).map { names[$0] ?? ObjectIDText.short($0) } ?? ValueFormatting.text(value)
            return Row(value: value, text: text, count: Self.integer(group["count"]))
        }
        if let nullIndex = rows.firstIndex(where: { $0.value == nil }) {
            let nullRequest = NSFetchRequest<NSManagedObject>(entityName: query.entity.entityName)
            let isNull = Predicates.NSPredicate(format: "%K == nil", argumentArray: [key])
            nullRequest.predicate = query.predicate.map {
                Predicates.NSCompoundPredicate(andPredicateWithSubpredicates: [$0, isNull])
            } ?? isNull
            rows[nullIndex].count = try context.performAndWait { try context.count(for: nullRequest) }
            rows[nullIndex].text = "(nil)"
        }
        rows.sort { $0.count != $1.count ? $0.count > $1.count : Self.valueOrders($0, before: $1) }
        self.rows = Array(rows.prefix(limit))
        self.total = rows.reduce(0) { $0 + $1.count }
    }

    /// The predicate that selects the objects of the selected value, for the drill-in table.
    func drillPredicate() -> Predicates.NSPredicate? {
        guard rows.indices.contains(selection) else { return nil }
        let value = rows[selection].value
        // The nil group as `== nil` (an `NSNull()` argument would print `<null>`, as Apple's does).
        guard let value else { return Predicates.NSPredicate(format: "%K == nil", argumentArray: [key]) }
        return Predicates.NSPredicate(format: "%K == %@", argumentArray: [key, value])
    }

    /// `value  count  share  bar` lines. Bars are scaled to the largest group, so that the most frequent value fills
    /// the bar whatever its share of the total.
    func lines(width: Int) -> [String] {
        let largest = rows.map(\.count).max() ?? 0
        let countWidth = String(largest).count
        return rows.map { row in
            let share = total == 0 ? 0 : Double(row.count) / Double(total)
            let percent = String(format: "%5.1f%%", share * 100)
            let scale = largest == 0 ? 0 : Double(row.count) / Double(largest)
            let bar = String(repeating: "■", count: Int((scale * 20).rounded()))
            let count = String(repeating: " ", count: max(0, countWidth - String(row.count).count)) + String(row.count)
            return "\(count)  \(percent)  \(bar.padding(toLength: 20, withPad: " ", startingAt: 0))  \(row.text)"
        }
    }

    /// The order of groups of equal size: numbers by value (40 before 200), dates by time, anything else by its
    /// text; the nil group last.
    private static func valueOrders(_ first: Row, before second: Row) -> Bool {
        switch (first.value, second.value) {
        case (nil, nil): return false
        case (nil, _): return false
        case (_, nil): return true
        case let (a as Date, b as Date): return a < b
        default:
            if let a = number(first.value), let b = number(second.value) { return a < b }
            return first.text < second.text
        }
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as Int: Double(number)
        case let number as Int64: Double(number)
        case let number as Int32: Double(number)
        case let number as Int16: Double(number)
        case let number as Double: number
        case let number as Float: Double(number)
        case let number as Decimal: NSDecimalNumber(decimal: number).doubleValue
        default: nil
        }
    }

    private static func integer(_ value: Any?) -> Int {
        switch value {
        case let number as Int64: Int(number)
        case let number as Int: number
        case let number as Double: Int(number)
        default: 0
        }
    }
}
