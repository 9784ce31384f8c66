import CoreDataModel
import Foundation

extension NSManagedObject {
    public var isInserted: Bool { changes.isInserted }
    public var isDeleted: Bool { changes.isDeleted }
    /// Whether the object has stored changes that a save would write.
    /// Changed and neither inserted nor deleted; a change to a transient property counts, as Apple's does (the object is
    /// among the context's `updatedObjects`; `hasPersistentChangedValues` tells the two apart).
    public var isUpdated: Bool { !changes.isInserted && !changes.isDeleted && (changes.hasStoredChanges || changes.hasTransientChanges) }
    public var hasChanges: Bool { changes.hasChanges }

    /// The changed stored properties and their new values (to-many relationships as sets of objects).
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        for slot in changes.changedSlots {
            let name = slots.properties[slot].name
            result[name] = value(forKey: name) ?? NSNull()
        }
        for name in changes.committedToMany.keys {
            result[name] = value(forKey: name) ?? NSNull()
        }
        return result
    }

    /// The persistent properties changed since the last objects-did-change notification (posted by
    /// `processPendingChanges()`, which saves, undo and redo call), with their new values; empty once that notification
    /// has announced every change.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        let unposted = trackingMarks & TrackedObjects.Membership.unposted.rawValue != 0
        // During the notification, an announced object's event is the one being announced.
        let announced = !unposted && managedObjectContext?.announcedObjects?.contains(self) == true
        guard unposted || announced, let current = storedValues else { return [:] }
        var result: [String: Any] = [:]
        if let start = sideState?.eventStartValues ?? changes.committedStoredValues {
            for slot in 0..<min(start.count, current.count) where start[slot] != current[slot] {
                let name = slots.properties[slot].name
                result[name] = value(forKey: name) ?? NSNull()
            }
        }
        for name in sideState?.eventToManyChanges ?? [] { result[name] = value(forKey: name) ?? NSNull() }
        return result
    }

    /// Called before a change: at the first change since an objects-did-change notification, remembers where the
    /// new event starts (the committed values serve while nothing announced has changed since the last save).
    @inline(__always)
    final func beginEventIfNeeded() {
        guard trackingMarks & TrackedObjects.Membership.unposted.rawValue == 0 else { return }
        if changes.committedStoredValues != nil {
            eventStartValues = storedValues
        } else if sideState != nil {
            sideState!.eventStartValues = nil
        }
        if sideState?.eventToManyChanges.isEmpty == false { sideState!.eventToManyChanges.removeAll() }
    }

    /// The values of `keys` (all stored properties when nil) as last fetched or saved, before unsaved changes.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        // An object not yet saved was never fetched or saved: it has no committed values, as Apple's has none.
        if changes.isInserted { return [:] }
        if storedValues == nil { fireFault() }
        let committed = changes.committedStoredValues ?? storedValues ?? []
        var result: [String: Any] = [:]
        for (index, property) in slots.properties.enumerated() where keys?.contains(property.name) ?? true {
            guard index < committed.count else { continue }
            switch committed[index] {
            case .attribute(.data(let data)) where isTransformable(slot: index):
                result[property.name] = transformableValue(data, atSlot: index) ?? NSNull()
            case .attribute(let value): result[property.name] = value.objectValue
            case .toOne(let id): result[property.name] = managedObjectContext?.object(with: id)
            case .null, .externalData: result[property.name] = NSNull()
            }
        }
        return result
    }

    // MARK: Setting values

    /// Sets a property: an attribute to a value of its type (or nil), a to-one relationship to an object (or nil),
    /// a to-many relationship to a `Set<NSManagedObject>`, an array, an `NSSet` or an `NSOrderedSet`. Inverse
    /// relationships follow.
    /// A value of the wrong type traps, as Apple's KVC raises.
    public func setValue(_ value: Any?, forKey key: String) {
        setPropertyValue(value, forKey: key, transforming: true)
    }

    /// `setValue(_:forKey:)`, with a transformable attribute's value taken as the stored bytes themselves unless
    /// `transforming` (the store tools edit and copy the bytes a store holds).
    package func setPropertyValue(_ value: Any?, forKey key: String, transforming: Bool = false) {
        // Persistent attributes, the common case, resolve with one lookup.
        if let slot = slots.index(of: key), slots.storedAttributes[slot] != nil {
            let type = slots.storedAttributeTypes[slot]
            if type == .transformableAttributeType, transforming {
                setStoredValue(storedTransformableValue(value, atSlot: slot), atSlot: slot)
                return
            }
            // The description is reached only for a value that needs the general conversion (or is refused).
            setStoredValue(StoredValue.exactAssignment(value, ofType: type)
                           ?? Self.storedValue(assigning: value, to: slots.storedAttributes[slot]!, ofType: type, of: entity),
                           atSlot: slot)
            return
        }
        guard let property = entity.propertiesByName[key] else {
            preconditionFailure("[<\(entity.entityName)> setValue:forUndefinedKey:]: the entity \(entity.entityName) is not key value coding-compliant for the key \"\(key)\".")
        }
        if property.isTransient {
            beginEventIfNeeded()
            // Kept even when nil (a set nil is not the model's default), and the context learns of the change, so a
            // child's save carries it to its parent as Apple's does.
            transientValues[key] = value as Any
            changes.hasTransientChanges = true
            managedObjectContext?.objectDidChange(self)
            return
        }
        switch property {
        case let attribute as NSAttributeDescription:
            guard let slot = slots.index(of: key) else { return }
            setStoredValue(Self.storedValue(assigning: value, to: attribute, ofType: attribute.attributeType, of: entity), atSlot: slot)
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                let objects: [NSManagedObject]
                switch value {
                case nil: objects = []
                case let set as Set<NSManagedObject>: objects = Array(set)
                case let array as [NSManagedObject]: objects = array
                // Xcode's generated properties declare Foundation's collections.
                case let set as NSSet: objects = Self.managedObjects(set.allObjects, forKey: key, of: entity)
                case let ordered as NSOrderedSet: objects = Self.managedObjects(ordered.array, forKey: key, of: entity)
                default: preconditionFailure("\(entity.entityName).\(key) takes a Set<NSManagedObject> or [NSManagedObject], not \(type(of: value!))")
                }
                setToMany(relationship, to: objects.map(\.objectID), maintainingInverse: true)
            } else {
                guard value == nil || value is NSManagedObject else {
                    preconditionFailure("\(entity.entityName).\(key) takes an NSManagedObject, not \(type(of: value!))")
                }
                setToOne(relationship, to: value as? NSManagedObject, maintainingInverse: true)
            }
        default:
            preconditionFailure("\(entity.entityName).\(key) cannot be set")
        }
    }

    /// The elements of a Foundation collection set on a to-many relationship, each of which must be a managed object.
    private static func managedObjects(_ elements: [Any], forKey key: String, of entity: NSEntityDescription) -> [NSManagedObject] {
        elements.map { element in
            guard let object = element as? NSManagedObject else {
                preconditionFailure("\(entity.entityName).\(key) holds managed objects, not \(type(of: element))")
            }
            return object
        }
    }

    /// `value` converted for `attribute`; a value of the wrong type traps, as Apple's KVC raises.
    private static func storedValue(assigning value: Any?, to attribute: NSAttributeDescription, ofType type: NSAttributeType,
                                    of entity: NSEntityDescription) -> StoredValue {
        do {
            return try StoredValue.assigning(value, to: attribute, ofType: type)
        } catch {
            preconditionFailure("\(entity.entityName).\(attribute.name): \(error)")
        }
    }

    /// Changes one stored slot, remembering the committed values on the first change.
    func setStoredValue(_ value: StoredValue, atSlot slot: Int) {
        if storedValues == nil { fireFault() }
        guard slot < storedValues?.count ?? 0 else { return }
        // Compared and replaced in place: copying the previous value out costs a copy of its payload, which only
        // an undo registration needs.
        if storedValues![slot] == value { return }
        // The committed values share the buffer until this first write copies it, once per save cycle; later sets
        // write in place.
        beginEventIfNeeded()
        if changes.committedStoredValues == nil { changes.committedStoredValues = storedValues }
        let context = managedObjectContext
        if let context, context.undoManager != nil {
            let previous = storedValues![slot]
            context.registerUndo(for: self) { object in
                object.setStoredValue(previous, atSlot: slot)
                object.awake(fromSnapshotEvents: .undoUpdate)
            }
        }
        storedValues![slot] = value
        // A value set back to what was saved is no change (undo relies on this).
        if changes.committedStoredValues![slot] == value {
            changes.changedSlots.remove(slot)
        } else {
            changes.changedSlots.insert(slot)
        }
        context?.objectDidChange(self)
    }
}
