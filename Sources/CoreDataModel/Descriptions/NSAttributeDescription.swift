import Foundation
import Predicates

/// A stored or transient value of an entity: its type, default, constraints and storage options.
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    public var attributeType: NSAttributeType = .undefinedAttributeType
    /// The class name of the value (`NSString`, `NSNumber`, …, or the custom class of a transformable).
    public var attributeValueClassName: String?
    /// The default value given to new objects, as Apple's `Any?`: set `0`, `"Untitled"`, `false`, `Date()`, … (in the
    /// attribute's type, or with the type not set yet, in the value's own); reads numbers back as `NSNumber`, as
    /// Apple's do. A value the attribute's type cannot hold traps, as a value of the wrong type does in `setValue`.
    public var defaultValue: Any? {
        get { attributeDefault?.objectValue }
        set {
            guard let newValue, !(newValue is NSNull) else {
                attributeDefault = nil
                return
            }
            guard let value = AttributeValue(defaultValue: newValue, as: attributeType) else {
                preconditionFailure("\(name): \(Swift.type(of: newValue)) is not a default value of a \(attributeType.xcodeName) attribute")
            }
            attributeDefault = value
        }
    }
    /// The default value as the library keeps it, typed.
    package var attributeDefault: AttributeValue?
    /// The name of the value transformer of a transformable attribute (nil means Core Data's default).
    public var valueTransformerName: String?
    /// Large values may be kept in files beside the store rather than in the row (§7 of the store format).
    public var allowsExternalBinaryDataStorage: Bool = false
    /// The value is kept in persistent history after the object is deleted (a "tombstone").
    public var preservesValueInHistoryOnDeletion: Bool = false
    public var allowsCloudEncryption: Bool = false
    /// The minimum value (numbers, dates) or length (strings, data), as written in the model.
    public var minimumValueString: String?
    /// The maximum value (numbers, dates) or length (strings, data), as written in the model.
    public var maximumValueString: String?
    /// A regular expression that string values must match.
    public var regularExpressionString: String?
    /// The composite type this attribute stores (iOS 17 composite attributes).
    public var compositeName: String?

    public init(name: String, type: NSAttributeType) {
        self.attributeType = type
        super.init(name: name)
    }

    /// An attribute with no name and an undefined type yet, as Apple's `init()`.
    public convenience init() { self.init(name: "", type: .undefinedAttributeType) }

    /// An independent copy that belongs to no entity (Apple's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSAttributeDescription(name: name, type: attributeType)
        copyAttributeSettings(into: copy)
        return copy
    }

    open override var description: String { "NSAttributeDescription(\(name): \(attributeType.xcodeName))" }
}

/// An attribute whose value the store derives from other values with an expression (`pages.@count`, `now()`).
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The derivation expression, as its canonical `predicateFormat` (`count:(pages)` for `pages.@count`); empty
    /// while no expression is set.
    public var derivationExpressionFormat: String
    /// The derivation expression (Apple's `derivationExpression`): a key path (`pages.@count`) or a function
    /// (`now()`, `lowercase:(name)`) of the entity's values; nil until one is set. Kept as its canonical format,
    /// which the version hash and model files record.
    public var derivationExpression: Predicates.NSExpression? {
        get {
            guard !derivationExpressionFormat.isEmpty else { return nil }
            return try? Predicates.NSExpression(parsing: derivationExpressionFormat)
        }
        set { derivationExpressionFormat = newValue?.predicateFormat ?? "" }
    }
    /// An optional predicate restricting which related objects take part, as its `predicateFormat`.
    public var filteringPredicateFormat: String?

    public init(name: String, type: NSAttributeType, derivationExpressionFormat: String) {
        self.derivationExpressionFormat = derivationExpressionFormat
        super.init(name: name, type: type)
        isReadOnly = true
    }

    /// A derived attribute with no name, an undefined type and no derivation expression yet: set `name`,
    /// `attributeType` and `derivationExpression`, as Apple's documentation does.
    public convenience init() { self.init(name: "", type: .undefinedAttributeType, derivationExpressionFormat: "") }

    /// An independent copy that belongs to no entity (Apple's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSDerivedAttributeDescription(name: name, type: attributeType, derivationExpressionFormat: derivationExpressionFormat)
        copyAttributeSettings(into: copy)
        copy.filteringPredicateFormat = filteringPredicateFormat
        return copy
    }
}
