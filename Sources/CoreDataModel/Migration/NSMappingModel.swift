import Foundation
import Predicates

/// How an entity mapping turns source instances into destination instances (Apple's `NSEntityMappingType`, with
/// Apple's raw values).
public enum NSEntityMappingType: Int, Sendable {
    case undefinedEntityMappingType = 0
    case customEntityMappingType = 1
    /// The entity exists only in the destination model: nothing is migrated into it.
    case addEntityMappingType = 2
    /// The entity exists only in the source model: its instances are not migrated.
    case removeEntityMappingType = 3
    /// Instances are copied as they are.
    case copyEntityMappingType = 4
    /// The entity exists on both sides and its instances are transformed.
    case transformEntityMappingType = 5
}

/// How one destination property gets its value: `name` is the destination property, `valueExpression` the
/// expression evaluated against the source instance (`NSExpression(format: "$source.title")`), nil when the property
/// keeps its default.
public final class NSPropertyMapping: @unchecked Sendable, CustomStringConvertible {
    public var name: String?
    /// The value expression, evaluated with `$source`, `$destination`, `$manager`, `$entityMapping`,
    /// `$propertyMapping` and `$entityPolicy` bound. The SQLite migrator runs `$source.<key>` copies (what inference
    /// produces) as SQL; anything else runs object by object.
    public var valueExpression: Predicates.NSExpression?
    /// Anything the migration code wants to keep with the mapping (Apple's `[AnyHashable: Any]?`).
    public var userInfo: [AnyHashable: Any]?

    public init(name: String? = nil, valueExpression: Predicates.NSExpression? = nil) {
        self.name = name
        self.valueExpression = valueExpression
    }

    /// The source property a `$source.<key>` expression copies (or a bare `<key>`, read from the source instance the
    /// expression is evaluated on), or nil for any other expression.
    public var sourcePropertyName: String? {
        let key: String
        switch valueExpression?.expressionNode {
        case .keyPathOnExpression(.variable("source"), let path)?: key = path
        case .keyPath(let path)?: key = path
        default: return nil
        }
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return key
    }

    public var description: String { "\(name ?? "?") = \(valueExpression?.predicateFormat ?? "(default)")" }
}

/// How the instances of one source entity become instances of one destination entity.
public final class NSEntityMapping: @unchecked Sendable, CustomStringConvertible {
    public var name: String
    public var mappingType: NSEntityMappingType
    public var sourceEntityName: String?
    public var sourceEntityVersionHash: Data?
    public var destinationEntityName: String?
    public var destinationEntityVersionHash: Data?
    public var attributeMappings: [NSPropertyMapping]?
    public var relationshipMappings: [NSPropertyMapping]?
    /// The `NSEntityMigrationPolicy` subclass a custom mapping names (kept; OpenCoreData runs no custom policies yet).
    public var entityMigrationPolicyClassName: String?
    /// The `FETCH(…)` expression selecting the source instances, as Apple's generated mappings carry it
    /// (``sourceFetchExpression(entityName:predicateString:)``); nil fetches every instance of the source entity.
    public var sourceExpression: Predicates.NSExpression?
    /// Anything the migration code wants to keep with the mapping (Apple's `[AnyHashable: Any]?`).
    public var userInfo: [AnyHashable: Any]?

    public init(name: String, mappingType: NSEntityMappingType, sourceEntityName: String?, destinationEntityName: String?) {
        self.name = name
        self.mappingType = mappingType
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
    }

    /// An empty mapping to fill in property by property, as Apple's `NSEntityMapping()`: no name (an empty string
    /// until one is set; a migration needs one), an undefined type, no entities.
    public convenience init() {
        self.init(name: "", mappingType: .undefinedEntityMappingType, sourceEntityName: nil, destinationEntityName: nil)
    }

    /// The source expression Xcode generates: `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:",
    /// "<entityName>", "<predicateString>"), $manager.sourceContext, NO)`, built as a tree so that any entity name fits.
    public static func sourceFetchExpression(entityName: String, predicateString: String = "TRUEPREDICATE") -> Predicates.NSExpression {
        let request = ExpressionNode.customFunction(
            receiver: .variable("manager"), selector: "fetchRequestForSourceEntityNamed:predicateString:",
            arguments: [.constant(.string(entityName)), .constant(.string(predicateString))])
        return Predicates.NSExpression(expressionNode: .fetch(
            request: request, context: .keyPathOnExpression(.variable("manager"), "sourceContext"), countOnly: false))
    }

    /// The attribute and relationship mappings together, by destination property name.
    public var propertyMappingsByName: [String: NSPropertyMapping] {
        var byName: [String: NSPropertyMapping] = [:]
        for mapping in (attributeMappings ?? []) + (relationshipMappings ?? []) {
            if let name = mapping.name { byName[name] = mapping }
        }
        return byName
    }

    public var description: String {
        "\(name) (\(mappingType), \(sourceEntityName ?? "-") → \(destinationEntityName ?? "-"))"
    }
}

/// A mapping from one model version to another: an ordered list of entity mappings (Apple's `NSMappingModel`).
public final class NSMappingModel: @unchecked Sendable, CustomStringConvertible {
    public var entityMappings: [NSEntityMapping]

    public init(entityMappings: [NSEntityMapping] = []) {
        self.entityMappings = entityMappings
    }

    public var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary(entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The mapping that fills `destinationEntityName`, if any.
    public func entityMapping(forDestinationEntity destinationEntityName: String) -> NSEntityMapping? {
        entityMappings.first { $0.destinationEntityName == destinationEntityName && $0.mappingType != .removeEntityMappingType }
    }

    public var description: String { "NSMappingModel(\(entityMappings.map(\.description).joined(separator: "; ")))" }
}

/// Why a mapping cannot be inferred or run: Apple's `NSInferredMappingModelError` (134190) carries `reason`,
/// `entity` and `property` in its user info, and so does this.
public struct MigrationMappingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var entity: String?
    public var property: String?

    public init(reason: String, entity: String? = nil, property: String? = nil) {
        self.reason = reason
        self.entity = entity
        self.property = property
    }

    public var description: String {
        let place = [entity, property].compactMap { $0 }.joined(separator: ".")
        return place.isEmpty ? reason : "\(place): \(reason)"
    }
}
