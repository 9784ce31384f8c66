import CoreDataModel
import Foundation
import KeyValueCoding

/// An object of a managed object context: the in-memory form of one row, with Apple's faulting and uniquing.
///
/// A fresh object is usually a *fault*: it knows its ID but holds no values until one is read, when the context
/// fulfils it from the row cache or the store. One context holds at most one object per ID.
/// Managed objects belong to their context's queue and are not `Sendable`; pass `objectID`s between threads.
open class NSManagedObject: Hashable, CustomStringConvertible, KeyValueCoding {
    // The hot state below skips the runtime's exclusivity checks (`MemorySafety.swift`, invariant 5).
    @exclusivity(unchecked) public internal(set) var objectID: NSManagedObjectID

    /// The object's entity (its ID's: one reference fewer to keep per object).
    public final var entity: NSEntityDescription { objectID.entity }

    /// The context that registered the object; nil once the context is gone or has reset.
    public final internal(set) var managedObjectContext: NSManagedObjectContext? {
        get { contextReference.context }
        set { contextReference = UnownedContextReference(newValue) }
    }
    /// The registering context, unretained (see `UnownedContextReference`).
    @exclusivity(unchecked) final var contextReference: UnownedContextReference

    /// The stored values, slot by slot; nil while the object is a fault.
    @exclusivity(unchecked) var storedValues: [StoredValue]?
    /// The optimistic-locking version the values were read at.
    @exclusivity(unchecked) var snapshotVersion: Int64 = 0
    /// The values of the row a fetch read for this fault, kept until the fault fires; the row's version waits in
    /// `snapshotVersion` (apart, rather than a whole `Snapshot?`, to keep the object small).
    @exclusivity(unchecked) final var pendingValues: [StoredValue]?
    let slots: PropertySlots
    /// Change tracking (see `NSManagedObject+Changes.swift`): the values as last saved, and what changed since.
    @exclusivity(unchecked) var changes = ObjectChanges()
    /// The stamp the object last entered its context's changed objects with (see `TrackedObjects`): saves write
    /// objects in this order.
    @exclusivity(unchecked) var changeOrder = 0
    /// The stamp the object last entered its context's objects awaiting an objects-did-change notice with.
    @exclusivity(unchecked) final var unpostedStamp = 0
    /// Which of its context's `TrackedObjects` sets hold the object (bits of `TrackedObjects.Membership`).
    @exclusivity(unchecked) final var trackingMarks: UInt8 = 0
    /// The registry slot the object was filed in (`RegistryBlocks`), or -1 for the registry's hash table.
    @exclusivity(unchecked) final var registrySlot: Int32 = -1
    /// The registry that lists the object (its context's), told when the object goes away.
    @exclusivity(unchecked) final var registration: ObjectRegistry?
    /// State most objects never need, allocated on first use (see `NSManagedObject+SideState.swift`).
    @exclusivity(unchecked) final var sideState: SideState?

    /// Creates an object for `entity` (its ID's), registered in `context` when one is given; contexts create objects
    /// through `object(with:)` and fetches.
    // Borrowed (`__shared`) arguments: the caller need not retain what the object does not keep.
    public required init(entity: __shared NSEntityDescription, objectID: __shared NSManagedObjectID,
                         context: __shared NSManagedObjectContext?, slots: __shared PropertySlots) {
        assert(entity === objectID.entity, "an object's entity is its ID's")
        self.objectID = objectID
        self.slots = slots
        contextReference = UnownedContextReference(context)
        contextReference.register(self, as: objectID)
    }

    deinit {
        // Any thread may run this (`MemorySafety.swift`, invariant 1).
        registration?.objectWillDeinitialize(self)
    }

    /// Whether the object's values have not been loaded yet.
    public var isFault: Bool { storedValues == nil && !objectID.isTemporaryID }

    /// Whether the relationship named `key` has not been loaded yet (to-many relationships load on first use).
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let relationship = entity.relationshipsByName[key] else { return false }
        return relationship.isToMany ? toMany[key] == nil : isFault
    }

    // MARK: Values

    /// The value of a property, firing the fault if needed: attribute values as Swift values (`Int64`, `Double`,
    /// `String`, `Date`, `Decimal`, `Data`, `UUID`, `URL`, `Bool`), a to-one destination as its object, a to-many
    /// relationship as `Set<NSManagedObject>` (or `[NSManagedObject]` when ordered). Unknown keys trap, as Apple's
    /// `valueForUndefinedKey:` raises.
    open func value(forKey key: String) -> Any? {
        if let index = slots.index(of: key) {
            if storedValues == nil { fireFault() }
            guard index < storedValues?.count ?? 0 else { return nil }
            if case .attribute(let value)? = storedValues?[index] { return value.anyValue }
            if case .toOne(let id)? = storedValues?[index] { return destination(id, ofToOneAt: index) }
            return (storedValues?[index]).flatMap { resolve($0) }
        }
        guard let property = entity.propertiesByName[key] else {
            if key.hasPrefix("@") { return nil }
            preconditionFailure("[<\(entity.name)> valueForUndefinedKey:]: the entity \(entity.name) is not key value coding-compliant for the key \"\(key)\".")
        }
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            let objects = toManyObjectIDs(for: relationship).compactMap { managedObjectContext?.object(with: $0) }
            return relationship.isOrdered ? objects as Any : Set(objects) as Any
        }
        // A transient attribute reads its model default until it is set (again after the object was refreshed).
        if let value = transientValues[key] { return ManagedValueConversion.flattened(value) }
        return (property as? NSAttributeDescription)?.defaultValue?.anyValue
    }

    /// The stored value in a slot, firing the fault first.
    func storedValue(at index: Int) -> StoredValue? {
        if storedValues == nil { fireFault() }
        guard index < storedValues?.count ?? 0 else { return nil }
        return storedValues?[index]
    }

    /// The destination of the to-one relationship in slot `index`; nil, with `faultingError` saying why, when the
    /// stored key leads to an object of another entity (a damaged store).
    private func destination(_ id: NSManagedObjectID, ofToOneAt index: Int) -> NSManagedObject? {
        guard let object = managedObjectContext?.object(with: id) else { return nil }
        if let relationship = slots.properties[index] as? NSRelationshipDescription, let expected = relationship.destinationEntity,
           !object.entity.isKind(of: expected) {
            faultingError = CoreDataError(
                .objectInaccessibleException,
                "\(entity.name) p\(objectID.primaryKey)'s relationship \(relationship.name) refers to row \(id.primaryKey), which is "
                    + "of entity \(object.entity.name), not \(expected.name); the store's references are damaged",
                affectedObjectIDs: [objectID])
            return nil
        }
        return object
    }

    private func resolve(_ stored: StoredValue) -> Any? {
        switch stored {
        case .null: return nil
        case .attribute(let value): return value.anyValue
        case .toOne(let id): return managedObjectContext?.object(with: id)
        case .externalData(let reference): return managedObjectContext?.externalData(reference: reference, for: self)
        }
    }

    /// The typed attribute value of `key`, or nil; does not resolve relationships.
    public final func attributeValue(forKey key: String) -> AttributeValue? {
        guard let index = slots.index(of: key) else { return nil }
        if storedValues == nil { fireFault() }
        // Read in place, without binding the array or copying the slot's whole `StoredValue` out.
        guard index < storedValues?.count ?? 0, case .attribute(let value)? = storedValues?[index] else { return nil }
        return value
    }

    /// The value of the attribute `key` as a `Value`, without boxing it into `Any` (what `@Managed` reads through;
    /// like Apple's generated accessors, it does not consult an override of `value(forKey:)` for attributes). Nil when
    /// the attribute is nil or holds another type; integers also read as `Int`, `Int32` and `Int16` when they fit.
    /// Relationships and external values are read through `value(forKey:)` and cast.
    ///
    /// ```swift
    /// let text = word.value(forKey: "text", as: String.self)      // String?
    /// let length = word.value(forKey: "length", as: Int.self)     // Int?, from the stored Int64
    /// ```
    @inlinable
    public final func value<Value>(forKey key: String, as type: Value.Type) -> Value? {
        if let attribute = attributeValue(forKey: key) { return attribute.value(as: Value.self) }
        // Unwrapped first: `nil as? Any` would succeed, and hand back a nil wrapped in `Any`.
        guard let untyped = value(forKey: key) else { return nil }
        // Transient integers are kept as `Int64`, as stored ones are: read as the declared integer type when they fit.
        return untyped as? Value ?? ManagedValueConversion.exactNumber(untyped, as: Value.self)
    }

    /// The ID of a to-one destination without firing the destination's fault.
    public func objectIDForToOne(_ key: String) -> NSManagedObjectID? {
        guard let index = slots.index(of: key), case .toOne(let id)? = storedValue(at: index) else { return nil }
        return id
    }

    /// The IDs of a to-many relationship's destinations, loading them once.
    public func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] {
        guard let relationship = entity.relationshipsByName[key] else { return [] }
        if !relationship.isToMany { return objectIDForToOne(key).map { [$0] } ?? [] }
        return toManyObjectIDs(for: relationship)
    }

    private func toManyObjectIDs(for relationship: NSRelationshipDescription) -> [NSManagedObjectID] {
        loadToMany(relationship)
        return toMany[relationship.name]?.ids ?? []
    }

    /// Loads a to-many relationship's destinations once (from the parent context or the store).
    func loadToMany(_ relationship: NSRelationshipDescription) {
        guard toMany[relationship.name] == nil else { return }
        let loaded = managedObjectContext?.fetchToManyObjectIDs(of: self, relationship: relationship) ?? []
        toMany[relationship.name] = ToManyIDs(loaded)
    }

    /// Turns the object back into a fault, releasing its values (relationships included).
    func turnIntoFault() {
        storedValues = nil
        pendingValues = nil
        sideState?.releaseLoadedState()
    }

    // MARK: Validation hooks

    /// Checks before an inserted object is saved: optionality, bounds, patterns and counts from the model.
    /// Override to add your own checks (call `super`); throw to refuse the save.
    open func validateForInsert() throws { try validateStoredProperties() }
    /// Checks before an updated object is saved; override as `validateForInsert()`.
    open func validateForUpdate() throws { try validateStoredProperties() }
    /// Checks before a deletion is saved; the default enforces Deny delete rules.
    open func validateForDelete() throws { try validateDenyRules() }

    // MARK: Identity

    public static func == (lhs: NSManagedObject, rhs: NSManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    open var description: String {
        let state = isFault ? "<fault>" : "{\(slots.properties.map(\.name).joined(separator: ", "))}"
        return "<\(entity.name): \(objectID.uriRepresentation().absoluteString)> \(state)"
    }
}

/// Managed objects live on their context's queue: the compiler refuses to send them elsewhere.
@available(*, unavailable)
extension NSManagedObject: @unchecked Sendable {}
