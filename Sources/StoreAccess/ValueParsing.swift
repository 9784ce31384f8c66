import CoreDataModel
import CoreDataObjectGraph
import Foundation

/// Turns the text of `KEY=VALUE` arguments into values of the property's type, naming the key and the expected
/// form when the text does not fit. `NULL` sets no value.
package enum ValueParsing {
    package struct Assignment: Equatable, Sendable {
        package var key: String
        package var text: String
    }

    package static func assignments(_ arguments: [String]) throws -> [Assignment] {
        try arguments.map { argument in
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw StoreAccessError("\"\(argument)\" is not KEY=VALUE")
            }
            return Assignment(key: String(argument[..<equals]), text: String(argument[argument.index(after: equals)...]))
        }
    }

    /// The value for `attribute` written as `text`.
    package static func value(_ text: String, for attribute: NSAttributeDescription, entity: String) throws -> Any? {
        if text == "NULL" { return nil }
        func fail(_ expected: String) -> StoreAccessError {
            StoreAccessError("\(entity).\(attribute.name) is \(attribute.attributeType.xcodeName): \"\(text)\" is not \(expected)")
        }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let value = Int64(text) else { throw fail("an integer") }
            return value
        case .doubleAttributeType, .floatAttributeType:
            guard let value = Double(text) else { throw fail("a number") }
            return value
        case .decimalAttributeType:
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw fail("a decimal number") }
            return value
        case .booleanAttributeType:
            switch text.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: throw fail("true or false")
            }
        case .stringAttributeType:
            return text
        case .dateAttributeType:
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text + "T00:00:00Z", strategy: .iso8601) { return date }
            throw fail("an ISO 8601 date (2024-05-01 or 2024-05-01T12:00:00Z)")
        case .UUIDAttributeType:
            guard let value = UUID(uuidString: text) else { throw fail("a UUID") }
            return value
        case .URIAttributeType:
            guard let value = URL(string: text), value.scheme != nil else { throw fail("an absolute URI") }
            return value
        case .binaryDataAttributeType, .transformableAttributeType:
            guard text.hasPrefix("0x"), text.count % 2 == 0 else { throw fail("hexadecimal bytes (0x…)") }
            var bytes: [UInt8] = []
            var index = text.index(text.startIndex, offsetBy: 2)
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                guard let byte = UInt8(text[index..<next], radix: 16) else { throw fail("hexadecimal bytes (0x…)") }
                bytes.append(byte)
                index = next
            }
            return Data(bytes)
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            throw StoreAccessError("\(entity).\(attribute.name) (\(attribute.attributeType.xcodeName)) cannot be set from the command line")
        }
    }

    /// The destination of a to-one relationship written as `pN` or an object URI (`x-coredata://…/Entity/pN`),
    /// loaded in the session's context; nil for `NULL`.
    package static func object(_ text: String, for relationship: NSRelationshipDescription, in session: StoreSession) throws -> NSManagedObject? {
        guard let id = try objectID(text, for: relationship, in: session) else {
            return nil
        }
        do {
            return try session.context.existingObject(with: id)
        } catch {
            throw StoreAccessError("\(relationship.name): no \(id.entity.entityName) with primary key \(id.primaryKey) in the store")
        }
    }

    /// The object ID written as `pN`, or as an object URI of the session's store (read by the library's
    /// `NSPersistentStoreCoordinator.objectID(forURIRepresentation:)`), checked against the relationship's destination;
    /// nil for `NULL`.
    package static func objectID(_ text: String, for relationship: NSRelationshipDescription, in session: StoreSession) throws -> NSManagedObjectID? {
        if text == "NULL" || text.isEmpty { return nil }
        guard let destination = relationship.destinationEntity else {
            throw StoreAccessError("\(relationship.name) has no destination entity")
        }
        let expected = "\(relationship.name) takes an object of \(destination.entityName): pN or x-coredata://…/\(destination.entityName)/pN"
        if text.hasPrefix("x-coredata:") {
            guard let url = URL(string: text) else { throw StoreAccessError("\(expected), not \"\(text)\"") }
            let id: NSManagedObjectID
            do {
                id = try session.coordinator.objectID(forURIRepresentation: url)
            } catch let error as CoreDataError {
                throw StoreAccessError("\(relationship.name): \(error.message)")
            }
            guard id.entity.isKind(of: destination) else {
                throw StoreAccessError("\(expected); \"\(text)\" names a \(id.entity.entityName)")
            }
            return id
        }
        guard text.hasPrefix("p"), let key = Int64(text.dropFirst()), key > 0 else {
            throw StoreAccessError("\(expected), not \"\(text)\"")
        }
        return NSManagedObjectID(entity: destination, storeIdentifier: session.storeIdentifier, primaryKey: key)
    }

    /// Applies assignments to an object, checking every key against the entity first.
    package static func apply(_ assignments: [Assignment], to object: NSManagedObject, session: StoreSession) throws {
        for assignment in assignments {
            guard let property = object.entity.propertiesByName[assignment.key] else {
                throw StoreAccessError("\(object.entity.entityName) has no property \"\(assignment.key)\"; it has: "
                                     + object.entity.propertiesByName.keys.sorted().joined(separator: ", "))
            }
            switch property {
            case let attribute as NSAttributeDescription:
                if attribute.isReadOnly { throw StoreAccessError("\(object.entity.entityName).\(attribute.name) is derived and cannot be set") }
                object.setPropertyValue(try value(assignment.text, for: attribute, entity: object.entity.entityName), forKey: attribute.name)
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                object.setValue(try self.object(assignment.text, for: relationship, in: session), forKey: relationship.name)
            case let relationship as NSRelationshipDescription where relationship.inverseRelationship?.isToMany == false:
                throw StoreAccessError("\(object.entity.entityName).\(assignment.key) is a to-many relationship: set it from the other side "
                                       + "(\(relationship.destinationEntityName).\(relationship.inverseRelationship!.name))")
            default:
                throw StoreAccessError("\(object.entity.entityName).\(assignment.key) is a to-many relationship, which this command cannot set "
                                       + "(it sets attributes and to-one relationships)")
            }
        }
    }
}
