import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess

/// One value of an output row, typed, so each format writes it without a cast through `Any` or a formatter.
enum CellValue {
    case null
    case integer(Int64)
    case double(Double)
    case boolean(Bool)
    case string(String)
    case date(Date)
    case data(Data)
    /// An object a to-one relationship reaches: its URI and its label (see `EntityLabel`).
    case reference(uri: String, label: String)
    /// The objects of a to-many relationship, in the store's order.
    case references([(uri: String, label: String)])
    /// Any other value (decimals, UUIDs, URLs, transformed values), as text; `isNumber` for decimals, which JSON
    /// writes as a number.
    case text(String, isNumber: Bool)

    /// Classifies a value read through key-value coding (the object path of `query`, and `aggregate`).
    init(_ value: Any?) {
        switch value {
        case nil: self = .null
        case let string as String: self = .string(string)
        case let bool as Bool: self = .boolean(bool)
        case let int as Int64: self = .integer(int)
        case let int as Int: self = .integer(Int64(int))
        case let int as Int32: self = .integer(Int64(int))
        case let int as Int16: self = .integer(Int64(int))
        case let double as Double: self = .double(double)
        case let float as Float: self = .double(Double(float))
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        case let decimal as Decimal: self = .text(decimal.description, isNumber: true)
        case let uuid as UUID: self = .text(uuid.uuidString, isNumber: false)
        case let url as URL: self = .text(url.absoluteString, isNumber: false)
        case let object as NSManagedObject:
            self = .reference(uri: object.objectID.uriRepresentation().absoluteString, label: EntityLabel.label(of: object))
        case let id as NSManagedObjectID:
            self = .reference(uri: id.uriRepresentation().absoluteString, label: "\(id.entity.entityName) p\(id.primaryKey)")
        case let set as Set<NSManagedObject>:
            self = .references(set.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }.map(Self.reference))
        case let array as [NSManagedObject]:
            self = .references(array.map(Self.reference))
        case let array as [Any]:
            self = .text("[" + array.map { ValueFormatting.text($0) }.joined(separator: ", ") + "]", isNumber: false)
        default:
            self = .text(ValueFormatting.text(value), isNumber: false)
        }
    }

    private static func reference(_ object: NSManagedObject) -> (uri: String, label: String) {
        (object.objectID.uriRepresentation().absoluteString, EntityLabel.label(of: object))
    }
}
