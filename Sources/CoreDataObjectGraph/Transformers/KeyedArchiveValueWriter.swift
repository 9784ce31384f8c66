import Foundation
import PropertyListCoding

/// Archives a value for `NSSecureUnarchiveFromDataTransformer` in `NSKeyedArchiver`'s format: Swift and Foundation
/// plain values (strings, numbers, booleans, data, dates, URLs, UUIDs, `NSNull`, and arrays, dictionaries, sets and
/// ordered sets of them) with the project's archive builder, as Apple's archiver writes them; any other object (an
/// `NSCoding` class of the program) through Foundation's `NSKeyedArchiver`.
struct KeyedArchiveValueWriter {
    let allowedClasses: [AnyClass]
    let requiresSecureCoding: Bool

    /// A value outside the plain classes: the whole value is then archived by Foundation.
    private struct NotPlain: Error {}

    func archive(_ value: Any) throws -> Data {
        var builder = KeyedArchiveBuilder()
        do {
            let root = try add(value, to: &builder, depth: 0)
            try checkAllowed(plainClassName(of: value))
            builder.setTopObject(root)
            return try builder.binaryData()
        } catch is NotPlain {
            return try archiveWithFoundation(value)
        }
    }

    /// The Foundation class a plain value is archived as, for the allowed-class check.
    private func plainClassName(of value: Any) -> String {
        switch value {
        case is String: return "NSString"
        case is Data: return "NSData"
        case is Date: return "NSDate"
        case is URL: return "NSURL"
        case is UUID: return "NSUUID"
        case is NSNull: return "NSNull"
        case is NSOrderedSet: return "NSOrderedSet"
        case is Set<AnyHashable>: return "NSSet"
        case is [Any]: return "NSArray"
        case is [AnyHashable: Any]: return "NSDictionary"
        default: return "NSNumber"
        }
    }

    private func checkAllowed(_ className: String) throws {
        guard requiresSecureCoding else { return }
        let names = allowedClasses.map { NSStringFromClass($0) }
        guard names.contains(className) else {
            throw TransformerError("a value archived as \(className) is not among the allowed classes (\(names.sorted().joined(separator: ", ")))")
        }
    }

    private func add(_ value: Any, to builder: inout KeyedArchiveBuilder, depth: Int) throws -> ArchivedObjectReference {
        guard depth <= KeyedArchive.maximumPlainValueDepth else {
            throw TransformerError("the value is nested deeper than \(KeyedArchive.maximumPlainValueDepth) levels")
        }
        if let number = value as? NSNumber, type(of: value) is NSNumber.Type {
            return try builder.addPlainValue(Self.plainNumber(number))
        }
        switch value {
        case let string as String: return builder.addString(string)
        case let flag as Bool: return try builder.addPlainValue(.bool(flag))
        case let integer as Int: return try builder.addPlainValue(.integer(Int64(integer)))
        case let integer as Int64: return try builder.addPlainValue(.integer(integer))
        case let integer as Int32: return try builder.addPlainValue(.integer(Int64(integer)))
        case let integer as Int16: return try builder.addPlainValue(.integer(Int64(integer)))
        case let integer as Int8: return try builder.addPlainValue(.integer(Int64(integer)))
        case let integer as UInt8: return try builder.addPlainValue(.integer(Int64(integer)))
        case let integer as UInt16: return try builder.addPlainValue(.integer(Int64(integer)))
        case let integer as UInt32: return try builder.addPlainValue(.integer(Int64(integer)))
        case let integer as UInt: return try builder.addPlainValue(.integer(exactly: UInt64(integer)))
        case let integer as UInt64: return try builder.addPlainValue(.integer(exactly: integer))
        case let real as Double: return try builder.addPlainValue(.real(real))
        case let real as Float: return try builder.addPlainValue(.real(Double(real)))
        case let data as Data: return try builder.addPlainValue(.data(data))
        case let date as Date: return builder.addDate(date)
        case let url as URL: return builder.addURL(url)
        case let uuid as UUID: return builder.addUUID(uuid)
        case is NSNull: return builder.addNull()
        case let ordered as NSOrderedSet:
            return try addCollection(ordered.array, className: "NSOrderedSet", to: &builder, depth: depth)
        case let set as Set<AnyHashable>:
            return try addCollection(set.map(\.base), className: "NSSet", to: &builder, depth: depth)
        case let array as [Any]:
            return try addCollection(array, className: "NSArray", to: &builder, depth: depth)
        case let dictionary as [AnyHashable: Any]:
            // The container precedes its contents, as Foundation's archiver orders them; keys in a fixed order.
            let reference = builder.reserveObject()
            let entries = dictionary.sorted { "\($0.key.base)" < "\($1.key.base)" }
            let keys = try entries.map { try add($0.key.base, to: &builder, depth: depth + 1) }
            let values = try entries.map { try add($0.value, to: &builder, depth: depth + 1) }
            try builder.defineObject(reference, className: "NSDictionary", fields: [
                "NS.keys": .array(keys.map(\.uid)), "NS.objects": .array(values.map(\.uid)),
            ])
            return reference
        default:
            throw NotPlain()
        }
    }

    private func addCollection(_ elements: [Any], className: String, to builder: inout KeyedArchiveBuilder,
                               depth: Int) throws -> ArchivedObjectReference {
        let reference = builder.reserveObject()
        let members = try elements.map { try add($0, to: &builder, depth: depth + 1) }
        try builder.defineObject(reference, className: className, fields: ["NS.objects": .array(members.map(\.uid))])
        return reference
    }

    /// An `NSNumber` as the plist value Foundation's archiver writes: booleans as booleans, floating point as reals.
    private static func plainNumber(_ number: NSNumber) -> PropertyListValue {
        let type = String(cString: number.objCType)
        if type == "B" || (type == "c" && (number.int64Value == 0 || number.int64Value == 1)) { return .bool(number.boolValue) }
        switch type {
        case "f", "d": return .real(number.doubleValue)
        case "Q", "L", "I": return .integer(exactly: number.uint64Value)
        default: return .integer(number.int64Value)
        }
    }

    /// Foundation's archiver, for an object of a class of the program; checked first, because Foundation's archiver
    /// on Linux traps on a value that is not `NSCoding`.
    private func archiveWithFoundation(_ value: Any) throws -> Data {
        guard let object = value as? NSObject, value is NSCoding else {
            throw TransformerError("a \(type(of: value)) cannot be archived: it is not an NSObject that conforms to NSCoding")
        }
        if requiresSecureCoding {
            guard type(of: object) is NSSecureCoding.Type else {
                throw TransformerError("\(type(of: object)) does not conform to NSSecureCoding")
            }
            guard allowedClasses.contains(where: { object.isKind(of: $0) }) else {
                throw TransformerError("\(type(of: object)) is not among the allowed classes "
                                       + "(\(allowedClasses.map { NSStringFromClass($0) }.sorted().joined(separator: ", ")))")
            }
        }
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: requiresSecureCoding)
        } catch {
            throw TransformerError("Foundation's archiver failed for \(type(of: object)): \(error)")
        }
    }
}
