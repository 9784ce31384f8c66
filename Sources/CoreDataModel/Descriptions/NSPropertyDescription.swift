import Foundation

/// A property of an entity: an attribute, a relationship, a fetched property or a derived attribute.
///
/// Like Apple's, descriptions are mutable while a model is being built and must not change once the model is in use
/// by a coordinator; that is why they may be marked `@unchecked Sendable`.
open class NSPropertyDescription: @unchecked Sendable, CustomStringConvertible {
    /// The property's name, unique within its entity and its entity's ancestors.
    public var name: String {
        didSet { NSEntityDescription.propertiesDidChange() }
    }
    /// The entity that declares this property. Implicitly unwrapped, so Apple's `property.entity.name` compiles, and
    /// `property.entity?.name` too; a weak back reference underneath (the entity owns its properties), which reads nil
    /// before the property is added to an entity and after the entity is gone.
    public internal(set) var entity: NSEntityDescription! {
        get { entityReference.entity }
        set { entityReference = WeakEntityReference(newValue) }
    }
    private var entityReference = WeakEntityReference(nil)
    public var isOptional: Bool = true
    public var isTransient: Bool = false
    /// Read-only properties (derived attributes are read-only) cannot be set through a context.
    public var isReadOnly: Bool = false
    public var isIndexed: Bool = false
    public var isIndexedBySpotlight: Bool = false
    public var isStoredInExternalRecord: Bool = false
    /// The property's user info, as Apple's `[AnyHashable: Any]?`: what the model file gives (strings), or anything
    /// set in code, read back as set (empty, not nil, when there is none). Model files record it as text
    /// (`ModelUserInfo`).
    public var userInfo: [AnyHashable: Any]? {
        get { userInfoEntries }
        set { userInfoEntries = newValue ?? [:] }
    }
    private var userInfoEntries: [AnyHashable: Any] = [:]
    /// The user info as model files record it: string keys and values (see `ModelUserInfo`).
    package var userInfoStrings: [String: String] {
        get { ModelUserInfo.strings(userInfoEntries) }
        set { userInfoEntries = ModelUserInfo.dictionary(newValue) }
    }
    /// Mixed into the version hash to force a new hash when the stored format changes but the model does not.
    public var versionHashModifier: String?
    /// The name this property had in the previous model version (Xcode's "Renaming ID", `elementID`).
    public var renamingIdentifier: String?
    /// Validation rules: each predicate must hold for a value to be valid; the warning is reported when it fails.
    /// Apple's `validationPredicates` and `validationWarnings` read them (see `NSPropertyDescription+Validation`).
    public var validationRules: [ValidationRule] = []

    public init(name: String) {
        self.name = name
    }

    /// The validation predicates' format strings, in order.
    public var validationPredicateFormats: [String] { validationRules.map(\.predicateFormat) }

    /// The SHA-256 version hash Core Data computes for this property (see `VersionHashing`).
    public var versionHash: Data { Data(VersionHashing.hash(of: self)) }

    /// An independent copy that belongs to no entity (Apple's `NSCopying`; `copy()` calls it): the same settings
    /// and validation predicates, which a subclass's override extends with its own.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPropertyDescription(name: name)
        copyPropertySettings(into: copy)
        return copy
    }

    open var description: String { "\(type(of: self))(\(name))" }
}
