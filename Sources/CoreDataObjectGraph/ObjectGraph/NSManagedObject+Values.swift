import CoreDataModel
import Foundation
import KeyValueCoding

// The managed object's values, faults and relationships; its declaration, with the stored state, is in the storage
// room (`Storage/NSManagedObject.swift`).
extension NSManagedObject {
    /// Whether the object's values have not been loaded yet: a fetched fault, an object turned back into a fault
    /// (an inserted one too, see `turnInsertedObjectIntoFault()`), or a child's object for its parent's insert.
    public var isFault: Bool { storedValues == nil }

    /// Whether the relationship named `key` has not been loaded yet (to-many relationships load on first use).
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let relationship = entity.relationshipsByName[key] else { return false }
        return relationship.isToMany ? toMany[key] == nil : isFault
    }

    // MARK: Values

    /// `value(forKey:)` as the model defines it, for the class's overridable entry point. `bridged` gives numbers as
    /// `NSNumber` (Apple's API); in-repo callers that switch on Swift types pass false and get `Int64`, `Double`, ….
    package final func propertyValue(forKey key: String, bridged: Bool = false) -> Any? {
        if let index = slots.index(of: key) {
            if storedValues == nil { fireFault() }
            guard index < storedValues?.count ?? 0 else { return nil }
            if case .attribute(let value)? = storedValues?[index] {
                guard bridged else { return value.anyValue }
                // Transformable attributes hold the transformer's bytes; Apple's API gives the value they stand for.
                if case .data(let data) = value, isTransformable(slot: index) { return transformableValue(data, atSlot: index) }
                return value.objectValue
            }
            if case .toOne(let id)? = storedValues?[index] { return destination(id, ofToOneAt: index) }
            if bridged, case .externalData? = storedValues?[index], isTransformable(slot: index),
               let data = (storedValues?[index]).flatMap({ resolve($0, bridged: false) }) as? Data {
                return transformableValue(data, atSlot: index)
            }
            return (storedValues?[index]).flatMap { resolve($0, bridged: bridged) }
        }
        guard let property = entity.propertiesByName[key] else {
            if key.hasPrefix("@") { return nil }
            preconditionFailure("[<\(entity.entityName)> valueForUndefinedKey:]: the entity \(entity.entityName) is not key value coding-compliant for the key \"\(key)\".")
        }
        if let fetched = property as? NSFetchedPropertyDescription { return fetchedPropertyValue(fetched) }
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            let objects = toManyObjectIDs(for: relationship).compactMap { managedObjectContext?.object(with: $0) }
            // A fulfilled to-many holds its objects, as Apple's does, until this object turns back into a fault: a
            // fault fired on one of them (a batch fault of the whole set) is still fired at the next read.
            if !objects.isEmpty { prefetchedDestinations[relationship.name] = objects }
            return relationship.isOrdered ? objects as Any : Set(objects) as Any
        }
        // A transient attribute reads its model default until it is set (again after the object was refreshed).
        if let value = transientValues[key] { return ManagedValueConversion.flattened(value) }
        guard let defaultValue = (property as? NSAttributeDescription)?.attributeDefault else { return nil }
        return bridged ? defaultValue.objectValue : defaultValue.anyValue
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
                "\(entity.entityName) p\(objectID.primaryKey)'s relationship \(relationship.name) refers to row \(id.primaryKey), which is "
                    + "of entity \(object.entity.entityName), not \(expected.entityName); the store's references are damaged",
                affectedObjectIDs: [objectID])
            return nil
        }
        return object
    }

    private func resolve(_ stored: StoredValue, bridged: Bool) -> Any? {
        switch stored {
        case .null: return nil
        case .attribute(let value): return bridged ? value.objectValue : value.anyValue
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

    /// `attributeValue(forKey:)` for the typed reads: nil for a transformable attribute, whose stored bytes are not its
    /// value (`value(forKey:as:)` then reads it transformed through `value(forKey:)`).
    @usableFromInline
    final func typedAttributeValue(forKey key: String) -> AttributeValue? {
        guard let index = slots.index(of: key) else { return nil }
        if storedValues == nil { fireFault() }
        guard index < storedValues?.count ?? 0, case .attribute(let value)? = storedValues?[index] else { return nil }
        if case .data = value, isTransformable(slot: index) { return nil }
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
        // A transformable attribute's value is read transformed, through `value(forKey:)` (kept out of this inlined body).
        if let attribute = typedAttributeValue(forKey: key) { return attribute.value(as: Value.self) }
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
}
