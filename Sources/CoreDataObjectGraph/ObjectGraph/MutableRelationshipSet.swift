import CoreDataModel
import Foundation

extension NSManagedObject {
    /// A live, mutable view of the to-many relationship `key` (Apple's `mutableSetValue(forKey:)`, which Xcode's
    /// generated `addToRecipes(_:)` accessors call). Adding or removing one object maintains the inverse and
    /// registers undo, in constant time, so building a relationship of n objects this way costs O(n).
    /// Traps when `key` is not a to-many relationship, as Apple's KVC raises.
    public func mutableSetValue(forKey key: String) -> MutableRelationshipSet {
        MutableRelationshipSet(owner: self, relationship: toManyRelationship(named: key, ordered: false))
    }

    /// A live, mutable view of the ordered to-many relationship `key` (Apple's `mutableOrderedSetValue(forKey:)`).
    public func mutableOrderedSetValue(forKey key: String) -> MutableRelationshipOrderedSet {
        MutableRelationshipOrderedSet(owner: self, relationship: toManyRelationship(named: key, ordered: true))
    }

    private func toManyRelationship(named key: String, ordered: Bool) -> NSRelationshipDescription {
        guard let relationship = entity.relationshipsByName[key], relationship.isToMany else {
            preconditionFailure("\(entity.entityName).\(key) is not a to-many relationship")
        }
        precondition(!ordered || relationship.isOrdered, "\(entity.entityName).\(key) is not ordered; use mutableSetValue(forKey:)")
        return relationship
    }
}

/// The destinations of one object's to-many relationship, changed in place (see `mutableSetValue(forKey:)`).
/// It belongs to its object's context queue, like the object.
public class MutableRelationshipSet: Sequence {
    /// The object whose relationship this is.
    public let owner: NSManagedObject
    public let relationship: NSRelationshipDescription

    init(owner: NSManagedObject, relationship: NSRelationshipDescription) {
        self.owner = owner
        self.relationship = relationship
    }

    var storage: ToManyIDs {
        owner.loadToMany(relationship)
        return owner.toMany[relationship.name] ?? ToManyIDs()
    }

    public var count: Int { storage.count }

    public func contains(_ object: NSManagedObject) -> Bool { storage.contains(object.objectID) }

    /// The destinations, in the relationship's order.
    public var allObjects: [NSManagedObject] {
        guard let context = owner.managedObjectContext else { return [] }
        return storage.ids.map { context.object(with: $0) }
    }

    public func makeIterator() -> IndexingIterator<[NSManagedObject]> { allObjects.makeIterator() }

    /// Adds `object` (at the end of an ordered relationship); nothing happens when it is already there.
    public func add(_ object: NSManagedObject) {
        checkContext(of: object)
        guard owner.appendToMany(relationship, object.objectID) else { return }
        if let inverse = relationship.inverseRelationship { object.addToInverse(inverse, object: owner) }
    }

    public func addObjects(from objects: [NSManagedObject]) {
        for object in objects { add(object) }
    }

    /// Removes `object`; nothing happens when it is not there.
    public func remove(_ object: NSManagedObject) {
        guard owner.removeFromToMany(relationship, object.objectID) else { return }
        if let inverse = relationship.inverseRelationship { object.removeFromInverse(inverse, object: owner) }
    }

    /// Adds every object of `objects` (an `NSSet`, `NSOrderedSet`, `Set<Tag>` or array), as `NSMutableSet`'s
    /// `union(_:)`, which Xcode's generated `addToTags(_ values: NSSet)` calls.
    public func union<Objects: Sequence>(_ objects: Objects) {
        for object in managedObjects(in: objects) { add(object) }
    }

    /// Removes every object of `objects` that is a destination, as `NSMutableSet`'s `minus(_:)`.
    public func minus<Objects: Sequence>(_ objects: Objects) {
        for object in managedObjects(in: objects) { remove(object) }
    }

    public func removeAllObjects() {
        owner.setToMany(relationship, to: [], maintainingInverse: true)
    }

    /// The managed objects of a collection whose elements may be typed `Any` (`NSSet`'s); anything else traps.
    func managedObjects<Objects: Sequence>(in objects: Objects) -> [NSManagedObject] {
        objects.map { element in
            guard let object = element as? NSManagedObject else {
                preconditionFailure("\(owner.entity.entityName).\(relationship.name) holds managed objects, not \(type(of: element))")
            }
            return object
        }
    }

    private func checkContext(of object: NSManagedObject) {
        precondition(object.managedObjectContext === owner.managedObjectContext,
                     "\(owner.entity.entityName).\(relationship.name): the object belongs to another context")
    }
}

/// An ordered to-many relationship, changed in place (see `mutableOrderedSetValue(forKey:)`).
public final class MutableRelationshipOrderedSet: MutableRelationshipSet {
    /// The destination at `index`; traps when out of range, as Apple's `objectAtIndex:` raises.
    public func object(at index: Int) -> NSManagedObject {
        guard let id = storage.id(at: index), let context = owner.managedObjectContext else {
            preconditionFailure("\(owner.entity.entityName).\(relationship.name): index \(index) beyond bounds [0 .. \(count - 1)]")
        }
        return context.object(with: id)
    }

    /// The position of `object`, or nil when it is not a destination.
    public func index(of object: NSManagedObject) -> Int? {
        storage.ids.firstIndex(of: object.objectID)
    }

    /// Inserts `object` at `index` (0...count); nothing happens when it is already a destination, as with
    /// `NSMutableOrderedSet`.
    public func insert(_ object: NSManagedObject, at index: Int) {
        var ids = storage.ids
        precondition(index >= 0 && index <= ids.count, "\(owner.entity.entityName).\(relationship.name): index \(index) beyond bounds [0 .. \(ids.count)]")
        guard !ids.contains(object.objectID) else { return }
        if index == ids.count { return add(object) }
        ids.insert(object.objectID, at: index)
        owner.setToMany(relationship, to: ids, maintainingInverse: true)
    }

    /// Removes the destination at `index`.
    public func removeObject(at index: Int) {
        remove(object(at: index))
    }

    /// Inserts `objects` at `indexes`, as `NSMutableOrderedSet`'s `insert(_:at:)`: the objects go, in order, to the
    /// indexes in increasing order, each counted in the set as it grows. Objects already present are skipped.
    public func insert<Objects: Sequence>(_ objects: Objects, at indexes: IndexSet) {
        let objects = managedObjects(in: objects)
        precondition(objects.count == indexes.count,
                     "\(owner.entity.entityName).\(relationship.name): \(objects.count) object(s) for \(indexes.count) index(es)")
        for (object, index) in zip(objects, indexes) { insert(object, at: Swift.min(index, count)) }
    }

    /// `insert(_:at:)` with Foundation's `NSIndexSet` (Xcode's generated `insertInto<Name>(_:at:)` takes one).
    public func insert<Objects: Sequence>(_ objects: Objects, at indexes: NSIndexSet) {
        insert(objects, at: IndexSet(indexes: indexes))
    }

    /// Removes the destinations at `indexes`.
    public func removeObjects(at indexes: IndexSet) {
        let doomed = indexes.map { object(at: $0) }
        for object in doomed { remove(object) }
    }

    public func removeObjects(at indexes: NSIndexSet) { removeObjects(at: IndexSet(indexes: indexes)) }

    /// Puts `object` in place of the destination at `index`.
    public func replaceObject(at index: Int, with object: NSManagedObject) {
        let old = self.object(at: index)
        guard old !== object else { return }
        remove(old)
        insert(object, at: Swift.min(index, count))
    }

    /// Puts `objects`, in order, in place of the destinations at `indexes`.
    public func replaceObjects<Objects: Sequence>(at indexes: IndexSet, with objects: Objects) {
        let objects = managedObjects(in: objects)
        precondition(objects.count == indexes.count,
                     "\(owner.entity.entityName).\(relationship.name): \(objects.count) object(s) for \(indexes.count) index(es)")
        for (index, object) in zip(indexes, objects) { replaceObject(at: index, with: object) }
    }

    public func replaceObjects<Objects: Sequence>(at indexes: NSIndexSet, with objects: Objects) {
        replaceObjects(at: IndexSet(indexes: indexes), with: objects)
    }
}

extension IndexSet {
    /// The indexes of an `NSIndexSet` (Foundation on Linux does not bridge it with `as`).
    init(indexes: NSIndexSet) {
        var set = IndexSet()
        indexes.enumerate { index, _ in set.insert(index) }
        self = set
    }
}
