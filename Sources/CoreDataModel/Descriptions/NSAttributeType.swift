/// The type of an attribute, with Apple's raw values (they are hashed into version hashes and written into
/// compiled models, so they must match Core Data's exactly).
public enum NSAttributeType: UInt, Sendable, Hashable, CaseIterable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    case compositeAttributeType = 2100

    /// The name Xcode writes in a model's `attributeType` XML attribute (`"Integer 16"`, `"Binary"`, …).
    public var xcodeName: String {
        switch self {
        case .undefinedAttributeType: return "Undefined"
        case .integer16AttributeType: return "Integer 16"
        case .integer32AttributeType: return "Integer 32"
        case .integer64AttributeType: return "Integer 64"
        case .decimalAttributeType: return "Decimal"
        case .doubleAttributeType: return "Double"
        case .floatAttributeType: return "Float"
        case .stringAttributeType: return "String"
        case .booleanAttributeType: return "Boolean"
        case .dateAttributeType: return "Date"
        case .binaryDataAttributeType: return "Binary"
        case .UUIDAttributeType: return "UUID"
        case .URIAttributeType: return "URI"
        case .transformableAttributeType: return "Transformable"
        case .objectIDAttributeType: return "ObjectID"
        case .compositeAttributeType: return "Composite"
        }
    }

    /// Parses Xcode's `attributeType` name; nil when the name is not one Xcode writes.
    public init?(xcodeName: String) {
        guard let match = Self.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = match
    }

    /// The SQLite column type Core Data declares for this attribute type, or nil for types with no column.
    public var sqliteColumnType: String? {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            return "INTEGER"
        case .decimalAttributeType: return "DECIMAL"
        case .doubleAttributeType, .floatAttributeType: return "FLOAT"
        case .stringAttributeType, .URIAttributeType: return "VARCHAR"
        case .dateAttributeType: return "TIMESTAMP"
        case .binaryDataAttributeType, .UUIDAttributeType, .transformableAttributeType: return "BLOB"
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType: return nil
        }
    }

    /// Whether values of this type are integers (the integer types and Boolean).
    public var isInteger: Bool {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return true
        default: return false
        }
    }
}

/// What happens to the destination objects of a relationship when the source object is deleted.
public enum NSDeleteRule: UInt, Sendable, Hashable, CaseIterable {
    case noActionDeleteRule = 0
    case nullifyDeleteRule = 1
    case cascadeDeleteRule = 2
    case denyDeleteRule = 3

    /// The name Xcode writes in a relationship's `deletionRule` XML attribute.
    public var xcodeName: String {
        switch self {
        case .noActionDeleteRule: return "No Action"
        case .nullifyDeleteRule: return "Nullify"
        case .cascadeDeleteRule: return "Cascade"
        case .denyDeleteRule: return "Deny"
        }
    }

    public init?(xcodeName: String) {
        guard let match = Self.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = match
    }
}
