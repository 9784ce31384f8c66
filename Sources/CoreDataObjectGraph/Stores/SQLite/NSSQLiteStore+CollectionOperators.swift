import CoreDataModel
import Foundation
import SQLiteDatabase

extension NSSQLiteStore {
    /// A fetched key path that ends in a to-many relationship's collection operator: `ingredients.@count`,
    /// `recipes.@sum.minutes`, `@avg`, `@min`, `@max` (the to-many reached through to-one relationships or not).
    /// `StoreSQL` compiles it to the correlated subquery a predicate uses; this reads the result back as the
    /// object path's key-value coding gives it: `@count` an integer, `@sum` an integer while the values are
    /// integers (0 for an empty collection), `@avg` a double, `@min`/`@max` a value of the attribute's own type,
    /// nil for an empty collection. Nil when `path` is not such a key path.
    static func collectionOperatorColumn(name: String, sql: String, path: String, from entity: NSEntityDescription) -> SelectedColumn? {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let toMany = entity.firstToMany(along: parts), toMany.index + 1 < parts.count else { return nil }
        let (index, destination) = (toMany.index, toMany.destination)
        let rest = parts[(index + 2)...].joined(separator: ".")
        switch parts[index + 1] {
        case "@count":
            return rest.isEmpty ? SelectedColumn(name: name, sql: sql, directType: .integer) { row, index in row.int64(at: index) } : nil
        case "@sum":
            guard let attribute = attribute(atKeyPath: rest, from: destination) else { return nil }
            let decimal = attribute.attributeType == .decimalAttributeType ? valueDecoder(for: attribute) : nil
            return SelectedColumn(name: name, sql: sql) { row, index in
                switch row.columnType(at: index) {
                case .integer: return row.int64(at: index)
                case .real: return decimal?(row, index) ?? row.double(at: index)
                default: return nil
                }
            }
        case "@avg":
            guard attribute(atKeyPath: rest, from: destination) != nil else { return nil }
            return SelectedColumn(name: name, sql: sql, directType: .double) { row, index in
                row.columnType(at: index) == .null ? nil : row.double(at: index)
            }
        case "@min", "@max":
            guard let attribute = attribute(atKeyPath: rest, from: destination) else { return nil }
            return SelectedColumn(name: name, sql: sql, directType: DirectlyReadType(attribute.attributeType),
                                  decode: valueDecoder(for: attribute))
        default:
            return nil
        }
    }
}
