import CoreDataModel
import Foundation
import Predicates
import SQLiteDatabase

/// An object of a store given as a predicate constant (`owner == %@`), compared by primary key.
///
/// Managed objects and object IDs adopt it; the compiler binds ``primaryKey`` after checking that the object
/// belongs to the entity tree the key path leads to.
public protocol StoreObjectReference: Sendable {
    /// The name of the object's entity.
    var entityName: String { get }
    /// The object's `Z_PK`.
    var primaryKey: Int64 { get }
}

/// A value that stands for a store object through another when given as a predicate constant: a managed object
/// (`SELF IN %@` with an array of objects, `owner == %@` with an object) through its object ID.
package protocol StoreObjectReferencing {
    var storeObjectReference: any StoreObjectReference { get }
}

/// Constants in the store's encodings (store format reference §4.4): dates as seconds since 2001-01-01, booleans
/// as 0/1, UUIDs as 16-byte blobs, URIs as their absolute string.
extension PredicateCompilation {
    /// `constant` encoded for comparison with values of `kind`; a constant of another type is refused, because
    /// the evaluator would never find it equal and SQLite's type affinity could.
    func encode(_ constant: ConstantValue, as kind: ValueKind, format: String) throws(PredicateSQLError) -> SQLiteValue {
        switch (kind, constant) {
        case (.string, .string(let text)): return .text(text)
        case (.number, .bool(let flag)): return .integer(flag ? 1 : 0)
        case (.number, .integer(let integer)): return .integer(integer)
        case (.number, .double(let real)): return .real(real)
        case (.number, .decimal(let decimal)): return .real(NSDecimalNumber(decimal: decimal).doubleValue)
        case (.date, .date(let date)): return .real(date.timeIntervalSinceReferenceDate)
        case (.uuid, .uuid(let uuid)): return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case (.data, .data(let data)): return .blob(Array(data))
        case (.url, .url(let url)): return .text(url.absoluteString)
        case (.object(let rootName), .object(let object)):
            guard let reference = (object.value as? any StoreObjectReference)
                    ?? (object.value as? any StoreObjectReferencing)?.storeObjectReference else { break }
            guard model.entitiesByName[reference.entityName]?.rootEntity.entityName == rootName else {
                throw refusal(
                    "object comparison", format,
                    "the object is a \(reference.entityName), which is not in the \(rootName) entity tree")
            }
            return .integer(reference.primaryKey)
        default:
            break
        }
        throw refusal(
            "comparison", format,
            "it compares \(kind) values with the constant \(constant.predicateFormat), which is of another type")
    }

    /// Whether `constant` is a store object of an entity outside the tree rooted at `rootName` (one this model has).
    func isObject(_ constant: ConstantValue, outsideTreeOf rootName: String) -> Bool {
        guard case .object(let object) = constant,
              let reference = (object.value as? any StoreObjectReference)
                ?? (object.value as? any StoreObjectReferencing)?.storeObjectReference,
              let root = model.entitiesByName[reference.entityName]?.rootEntity.entityName else { return false }
        return root != rootName
    }

    /// The text of a string constant given to a string operator.
    func encodeString(
        _ constant: ConstantValue, _ operatorType: ComparisonOperator, format: String
    ) throws(PredicateSQLError) -> String {
        guard case .string(let text) = constant else {
            throw refusal(
                "\(operatorType.formatSymbol) comparison", format,
                "\(operatorType.formatSymbol) needs a string, not \(constant.predicateFormat)")
        }
        return text
    }
}
