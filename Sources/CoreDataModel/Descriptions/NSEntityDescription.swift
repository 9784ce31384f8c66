import Foundation
import Synchronization

/// An entity of a managed object model: its properties, its place in an inheritance tree, and its constraints.
open class NSEntityDescription: @unchecked Sendable, CustomStringConvertible {
    /// The entity's name; nil only for an entity made with `init()` whose name is not set yet (Apple's `String?`).
    public var name: String? {
        get { hasName ? entityName : nil }
        set {
            entityName = newValue ?? ""
            hasName = newValue != nil
            // Subentities name their parent, and the model links them by that name.
            for child in linkedSubentities { child.superentityName = entityName }
            Self.propertiesDidChange()
        }
    }
    /// The name as the library reads it: an entity in a model always has one (`""` while `name` is nil). Stored, not
    /// derived from `name`, so the many reads on fetch and save paths stay a plain load.
    package private(set) var entityName: String
    private var hasName: Bool
    /// The name of the class that represents the entity's objects; `NSManagedObject` when the model names none, as
    /// Apple's reads. Implicitly unwrapped as Apple's, so `let name: String = entity.managedObjectClassName` compiles;
    /// setting nil goes back to naming no class.
    public var managedObjectClassName: String! {
        get { representedClassName ?? "NSManagedObject" }
        set { representedClassName = newValue }
    }
    /// The class name the model itself gives (Xcode's `representedClassName`), nil when it gives none: what model
    /// files and the schema report record, and what the subclass lookup reads.
    package var representedClassName: String?
    public var isAbstract: Bool = false
    public internal(set) var superentity: NSEntityDescription? {
        get { superentityReference.entity }
        set {
            superentityReference = WeakEntityReference(newValue)
            Self.propertiesDidChange()
        }
    }
    private var superentityReference = WeakEntityReference(nil)
    /// The direct subentities, in the order the model declares them. Setting them makes this entity their parent, as
    /// Apple's setter does (the way a model built in code declares inheritance: `superentity` is read-only).
    public var subentities: [NSEntityDescription] {
        get { linkedSubentities }
        set {
            for old in linkedSubentities where old.superentity === self && !newValue.contains(where: { $0 === old }) {
                old.superentityName = nil
                old.superentity = nil
            }
            for child in newValue {
                child.superentityName = entityName
                child.superentity = self
            }
            linkedSubentities = newValue
        }
    }
    private var linkedSubentities: [NSEntityDescription] = []

    /// The direct subentities by name (Apple's `subentitiesByName`).
    public var subentitiesByName: [String: NSEntityDescription] {
        Dictionary(linkedSubentities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
    }
    /// The parent entity's name, kept so that a model can be built before it is linked.
    public var superentityName: String?
    /// The properties this entity declares itself (not inherited ones), in declaration order.
    public private(set) var ownProperties: [NSPropertyDescription] = [] {
        didSet { Self.propertiesDidChange() }
    }
    /// The entity's user info, as Apple's `[AnyHashable: Any]?`: what the model file gives (strings), or anything set
    /// in code, read back as set (empty, not nil, when there is none). Model files record it as text (`ModelUserInfo`).
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
    public var versionHashModifier: String?
    /// The name this entity had in the previous model version (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// Uniqueness constraints, as Apple's `[[Any]]`: each lists the properties whose values together must be unique,
    /// each property given by its name (`String`) or its description (an `NSPropertyDescription`); they read back as
    /// they were set. Any other entry stops the program with a message naming it, as Apple's setter raises.
    public var uniquenessConstraints: [[Any]] {
        get { constraintElements.map { $0.map(\.value) } }
        set {
            constraintElements = newValue.enumerated().map { index, constraint in
                constraint.map { entry in
                    guard let element = UniquenessConstraintElement(entry) else {
                        preconditionFailure("uniqueness constraint \(index + 1) of entity \(entityName) holds \(type(of: entry)) "
                                            + "\(entry); each entry must be a property name (String) or an NSPropertyDescription")
                    }
                    return element
                }
            }
        }
    }
    /// The constraints as set, each entry a name or a property.
    private var constraintElements: [[UniquenessConstraintElement]] = []
    /// The uniqueness constraints as lists of property names: what the store schema, model files, version hashes
    /// and the schema report read (a property given by its description counts by its current name).
    package var uniquenessConstraintNames: [[String]] {
        get { constraintElements.map { $0.map(\.propertyName) } }
        set { constraintElements = newValue.map { $0.map(UniquenessConstraintElement.name) } }
    }
    /// Fetch indexes (Xcode's `fetchIndex` elements). Setting them makes this entity their `entity`.
    public var indexes: [NSFetchIndexDescription] = [] {
        didSet { for index in indexes { index.entity = self } }
    }
    /// Legacy compound indexes (Xcode 7–8 `compoundIndexes`): each is a list of property names.
    public var compoundIndexes: [[String]] = []
    /// The model that owns this entity. Implicitly unwrapped, so Apple's `entity.managedObjectModel.entities`
    /// compiles; a weak back reference underneath (the model owns its entities), which reads nil before the entity is
    /// added to a model and after the model is gone.
    public internal(set) weak var managedObjectModel: NSManagedObjectModel!
    /// `allProperties` and `propertiesByName`, computed once per model generation (see `PropertyCache`).
    let propertyCache = Mutex<PropertyCache?>(nil)
    /// What weak references to this entity point at (see `WeakEntityReference`).
    private(set) var referenceTarget: EntityReferenceTarget!
    /// `inheritanceTreeToken` once computed; 0 until then, and again after the model is relinked.
    private let cachedTreeToken = Atomic<UInt>(0)

    public init(name: String) {
        entityName = name
        hasName = true
        referenceTarget = EntityReferenceTarget(self)
    }

    /// An entity with no name (`name` reads nil) and no properties yet, as Apple's `init()` makes one: set `name`,
    /// `properties`, … before adding it to a model.
    public convenience init() {
        self.init(name: "")
        hasName = false
    }

    /// Appends a property declared by this entity.
    public func addProperty(_ property: NSPropertyDescription) {
        property.entity = self
        ownProperties.append(property)
    }

    /// Replaces the properties this entity declares.
    public func setProperties(_ properties: [NSPropertyDescription]) {
        ownProperties = []
        properties.forEach(addProperty)
    }

    /// All properties, inherited ones first, then this entity's own (Apple's `properties` lists only own ones;
    /// see `ownProperties`). A subentity's property hides an inherited one of the same name.
    public var allProperties: [NSPropertyDescription] { cachedProperties.all }

    /// `allProperties` computed from the declarations, without the cache.
    func computeAllProperties() -> [NSPropertyDescription] {
        var result = superentity?.allProperties ?? []
        for property in ownProperties {
            if let index = result.firstIndex(where: { $0.name == property.name }) {
                result[index] = property
            } else {
                result.append(property)
            }
        }
        return result
    }

    /// Apple's `properties`: the properties this entity declares.
    public var properties: [NSPropertyDescription] {
        get { ownProperties }
        set { setProperties(newValue) }
    }

    /// Every property by name, inherited ones included.
    public var propertiesByName: [String: NSPropertyDescription] { cachedProperties.byName }

    public var attributesByName: [String: NSAttributeDescription] {
        propertiesByName.compactMapValues { $0 as? NSAttributeDescription }
    }

    public var relationshipsByName: [String: NSRelationshipDescription] {
        propertiesByName.compactMapValues { $0 as? NSRelationshipDescription }
    }

    /// The relationships to `entity` (or to one of its ancestors).
    public func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        allProperties.compactMap { $0 as? NSRelationshipDescription }
            .filter { relationship in
                guard let destination = relationship.destinationEntity else { return false }
                return entity.isKind(of: destination)
            }
    }

    /// Whether this entity is `entity` or one of its descendants (Apple's spelling, `isKindOf(entity:)`).
    public func isKindOf(entity: NSEntityDescription) -> Bool { isKind(of: entity) }

    /// Whether this entity is `entity` or one of its descendants.
    public func isKind(of entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        while let candidate = current {
            if candidate === entity { return true }
            current = candidate.superentity
        }
        return false
    }

    /// The root of this entity's inheritance tree (itself for a root entity).
    public var rootEntity: NSEntityDescription {
        var current = self
        while let parent = current.superentity { current = parent }
        return current
    }

    /// A number shared by every entity of this entity's inheritance tree and by no live entity of another tree: the
    /// root's address, computed once (the root is found through weak `superentity` references, slow to follow) and
    /// kept until the model is linked again. It stays the same if the root goes away before
    /// this entity, so a table keyed by it finds an entry again as long as the entry's entity lives; another tree's
    /// root that reuses the address shares the number, so a match must still be confirmed (by `rootEntity`).
    package var inheritanceTreeToken: UInt {
        let cached = cachedTreeToken.load(ordering: .relaxed)
        if cached != 0 { return cached }
        let token = UInt(bitPattern: ObjectIdentifier(rootEntity))
        cachedTreeToken.store(token, ordering: .relaxed)
        return token
    }

    /// Forgets `inheritanceTreeToken`, for a model whose inheritance links changed.
    package func forgetInheritanceTreeToken() {
        cachedTreeToken.store(0, ordering: .relaxed)
    }

    /// This entity and all its descendants, depth first, subentities in name order.
    public var selfAndDescendants: [NSEntityDescription] {
        [self] + subentities.sorted(by: EntityOrdering.subentityPrecedes).flatMap(\.selfAndDescendants)
    }

    /// The SHA-256 version hash Core Data computes for this entity; it is what a store's metadata records.
    public var versionHash: Data { Data(VersionHashing.hash(of: self)) }

    public var description: String { "NSEntityDescription(\(entityName))" }

    /// Links the resolved parent; `superentityName` stays as declared so linking can run again.
    package func linkSuperentity(_ parent: NSEntityDescription?) {
        superentity = parent
    }

    package func setSubentities(_ children: [NSEntityDescription]) {
        linkedSubentities = children
    }

    package func setModel(_ model: NSManagedObjectModel?) {
        managedObjectModel = model
    }
}

/// The orders Core Data uses for entities when numbering them and when naming things after them.
package enum EntityOrdering {
    /// Subentities are walked in `caseInsensitiveCompare:` order, ties broken by code points so it is total.
    package static func subentityPrecedes(_ lhs: NSEntityDescription, _ rhs: NSEntityDescription) -> Bool {
        namePrecedes(lhs.entityName, rhs.entityName)
    }

    package static func namePrecedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.lowercased(), right = rhs.lowercased()
        if left != right { return left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars) }
        return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }
}

/// One entry of a uniqueness constraint: a property's name, or the property.
private enum UniquenessConstraintElement {
    case name(String)
    case property(NSPropertyDescription)

    init?(_ entry: Any) {
        switch entry {
        case let name as String: self = .name(name)
        case let property as NSPropertyDescription: self = .property(property)
        default: return nil
        }
    }

    var value: Any {
        switch self {
        case .name(let name): name
        case .property(let property): property
        }
    }

    var propertyName: String {
        switch self {
        case .name(let name): name
        case .property(let property): property.name
        }
    }
}
