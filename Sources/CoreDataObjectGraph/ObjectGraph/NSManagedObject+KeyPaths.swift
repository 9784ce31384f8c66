import CoreDataModel
import Foundation
import Predicates
import Synchronization

/// Swift key paths to `@Managed` properties as Core Data keys: `\Person.name` is `"name"`, as `#keyPath(Person.name)`
/// is on Apple's platforms, and `\Recipe.chef?.name` is `"chef.name"`. Linux has no Objective-C runtime to name a
/// property, so the key is learnt from the accessors `@Managed` writes: the key path is read once on a probe object (an
/// object of the class that belongs to no context, its attributes holding zero values), whose `@Managed` getters
/// report their keys; a to-one getter hands back a probe of its destination, so a chain is read step by step. Learnt
/// keys are remembered.
///
/// ```swift
/// request.sortDescriptors = [NSSortDescriptor(keyPath: \Note.title, ascending: true)]
/// let title = NSExpression(forKeyPath: \Note.title)
/// let byFolder = NSSortDescriptor(keyPath: \Note.folder?.name, ascending: true)   // "folder.name"
/// ```
///
/// A key path names a key when it reads one `@Managed` property, or a chain of them each read on the destination of
/// the one before; a computed property of the class that reads anything else, or a property that is not `@Managed`,
/// has no key, and the APIs that take one stop with a message naming the key path.
extension NSManagedObject {
    /// The key of `keyPath` (`\Person.name` → `"name"`, `\Person.company?.name` → `"company.name"`), or nil when it
    /// does not read `@Managed` properties of `Root` as described above (or `Root`'s entity is not in a model that was
    /// loaded).
    public static func key<Root: NSManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> String? {
        if let known = ManagedKeyPathProbe.known(keyPath) { return known }
        guard let entity = KnownModels.entity(named: Root.entityName) else { return nil }
        let probe = Root.makeKeyPathProbe(entity: entity)
        let session = ManagedKeyPathProbe.begin(root: probe)
        defer { ManagedKeyPathProbe.end(session) }
        _ = probe[keyPath: keyPath]
        guard let key = session.key(reading: keyPath) else { return nil }
        ManagedKeyPathProbe.remember(keyPath, key: key)
        return key
    }

    /// The key of `keyPath`, or a stop naming it: a key path Core Data cannot name is a programming error, as an
    /// unknown key is.
    static func requiredKey<Root: NSManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> String {
        guard let key = key(for: keyPath) else {
            preconditionFailure("\(keyPath) does not name a Core Data property: only a key path through @Managed properties of "
                                + "\(Root.self) has a key on Linux (write the key as a string instead)")
        }
        return key
    }

    /// An object of this class for `entity` that belongs to no context, every stored attribute holding a zero value of
    /// its type, so reading any `@Managed` property on it returns without a store.
    fileprivate static func makeKeyPathProbe(entity: NSEntityDescription) -> Self {
        let slots = PropertySlots(entity: entity)
        let probe = Self(entity: entity, objectID: NSManagedObjectID(temporaryFor: entity), context: nil, slots: slots)
        probe.storedValues = slots.properties.map { property in
            guard let attribute = property as? NSAttributeDescription, let zero = AttributeValue.zero(of: attribute.attributeType) else {
                return .null
            }
            return .attribute(zero)
        }
        return probe
    }
}

/// What the `@Managed` getters report while a key path is being named.
@usableFromInline
enum ManagedKeyPathProbe {
    /// How many probes are running (the getter checks this before anything else).
    @usableFromInline static let active = Atomic<Int>(0)

    @inlinable static var isActive: Bool { active.load(ordering: .relaxed) != 0 }

    /// One key path being read: the probe objects it made and the `@Managed` getters called on them, in order.
    final class Session: @unchecked Sendable {
        struct Step {
            var object: ObjectIdentifier
            var key: String
            var keyPath: AnyKeyPath
            /// The probe a to-one getter handed back, which the next step must read.
            var destination: ObjectIdentifier?
        }
        let root: NSManagedObject
        /// Keeps the destinations' probes alive (and their identifiers unique) while the session runs.
        var objects: [NSManagedObject] = []
        var steps: [Step] = []
        init(root: NSManagedObject) { self.root = root }

        /// The key the steps spell, when they read one `@Managed` property that is `keyPath` itself, or a chain in
        /// which each getter ran on the previous one's destination.
        func key(reading keyPath: AnyKeyPath) -> String? {
            guard let first = steps.first, first.object == ObjectIdentifier(root) else { return nil }
            if steps.count == 1 { return first.keyPath == keyPath ? first.key : nil }
            for (previous, step) in zip(steps, steps.dropFirst()) where previous.destination != step.object { return nil }
            return steps.map(\.key).joined(separator: ".")
        }
    }

    /// The sessions running, by each of their probe objects (probes made on other threads are told apart).
    private static let sessions = Mutex<[ObjectIdentifier: Session]>([:])
    /// Key paths and their keys, behind a lock (key paths are immutable values, though not marked `Sendable`).
    private final class Learnt: @unchecked Sendable {
        let lock = NSLock()
        var keys: [AnyKeyPath: String] = [:]
    }
    private static let learnt = Learnt()

    static func begin(root: NSManagedObject) -> Session {
        let session = Session(root: root)
        sessions.withLock { $0[ObjectIdentifier(root)] = session }
        active.add(1, ordering: .sequentiallyConsistent)
        return session
    }

    static func end(_ session: Session) {
        active.subtract(1, ordering: .sequentiallyConsistent)
        sessions.withLock { running in
            for object in [session.root] + session.objects { running.removeValue(forKey: ObjectIdentifier(object)) }
        }
    }

    /// Records the getter of `key` running on `object` when that is a probe; for a to-one relationship, returns a
    /// probe of the destination (as a `Value`) for the next step of a chain to read. Nil: read the probe's value.
    @usableFromInline
    static func read<Value>(_ key: String, of object: NSManagedObject, keyPath: AnyKeyPath) -> Value? {
        let id = ObjectIdentifier(object)
        guard let session = sessions.withLock({ $0[id] }) else { return nil }
        var step = Session.Step(object: id, key: key, keyPath: keyPath, destination: nil)
        defer { session.steps.append(step) }
        guard let relationship = object.entity.relationshipsByName[key], !relationship.isToMany,
              let destinationEntity = relationship.destinationEntity,
              let destinationClass = managedObjectClass(in: Value.self) else { return nil }
        let destination = destinationClass.makeKeyPathProbe(entity: destinationEntity)
        guard let value = destination as? Value else { return nil }
        session.objects.append(destination)
        sessions.withLock { $0[ObjectIdentifier(destination)] = session }
        step.destination = ObjectIdentifier(destination)
        return value
    }

    /// The managed object class `type` is, or wraps in an optional.
    private static func managedObjectClass(in type: Any.Type) -> NSManagedObject.Type? {
        if let managed = type as? NSManagedObject.Type { return managed }
        return (type as? any OptionalValue.Type)?.wrappedType as? NSManagedObject.Type
    }

    static func remember(_ keyPath: AnyKeyPath, key: String) {
        learnt.lock.withLock { learnt.keys[keyPath] = key }
    }

    static func known(_ keyPath: AnyKeyPath) -> String? {
        learnt.lock.withLock { learnt.keys[keyPath] }
    }
}

extension AttributeValue {
    /// A value of `type` that every typed read of it accepts (0, "", the reference date, empty data, …).
    static func zero(of type: NSAttributeType) -> AttributeValue? {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return .integer(0)
        case .doubleAttributeType: return .double(0)
        case .floatAttributeType: return .float(0)
        case .decimalAttributeType: return .decimal(0)
        case .booleanAttributeType: return .boolean(false)
        case .stringAttributeType: return .string("")
        case .dateAttributeType: return .date(Date(timeIntervalSinceReferenceDate: 0))
        case .binaryDataAttributeType: return .data(Data())
        case .UUIDAttributeType: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .URIAttributeType: return URL(string: "x-coredata:probe").map { .uri($0) }
        case .transformableAttributeType, .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType: return nil
        }
    }
}

extension Predicates.NSSortDescriptor {
    /// A sort descriptor on the `@Managed` property `keyPath` names (`\Person.name`, or a chain: `\Person.company?.name`),
    /// as Apple's `NSSortDescriptor(keyPath:ascending:)`; a key path that names no such property stops with a message.
    /// Made before `Root`'s model is loaded (a stored property's initial value, as test cases write their requests),
    /// the descriptor learns its key when first used.
    public convenience init<Root: NSManagedObject, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        if let known = ManagedKeyPathProbe.known(keyPath) ?? (KnownModels.entity(named: Root.entityName) != nil
                                                             ? NSManagedObject.requiredKey(for: keyPath) : nil) {
            self.init(key: known, ascending: ascending)
        } else {
            nonisolated(unsafe) let keyPath = keyPath
            self.init(deferredKey: { NSManagedObject.requiredKey(for: keyPath) }, ascending: ascending)
        }
    }
}

extension Predicates.NSExpression {
    /// A key path expression for the `@Managed` property `keyPath` names (`\Person.name`, or a chain), as Apple's
    /// `NSExpression(forKeyPath:)` with a Swift key path; a key path that names no such property stops with a message.
    public convenience init<Root: NSManagedObject, Value>(forKeyPath keyPath: KeyPath<Root, Value>) {
        self.init(forKeyPath: NSManagedObject.requiredKey(for: keyPath))
    }
}
