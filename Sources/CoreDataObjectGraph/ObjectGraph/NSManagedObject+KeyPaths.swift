import CoreDataModel
import Foundation
import Predicates
import Synchronization

/// Swift key paths to `@Managed` properties as Core Data keys: `\Person.name` is `"name"`, as `#keyPath(Person.name)`
/// is on Apple's platforms. Linux has no Objective-C runtime to name a property, so the key is learnt from the
/// property wrapper itself: the key path is read once on a probe object (an object of the class that belongs to no
/// context, its attributes holding zero values), whose `@Managed` getter reports its key path and key. Learnt keys
/// are remembered.
///
/// ```swift
/// request.sortDescriptors = [NSSortDescriptor(keyPath: \Note.title, ascending: true)]
/// let title = NSExpression(forKeyPath: \Note.title)
/// ```
///
/// Only a key path to one `@Managed` property can be named: a computed property of the class, a property that is
/// not `@Managed`, or a chain (`\Note.folder?.name`) has no key, and the APIs that take one stop with a message
/// naming the key path.
extension NSManagedObject {
    /// The key of `keyPath` (`\Person.name` → `"name"`), or nil when it is not a key path to one `@Managed` property
    /// of `Root` (or `Root`'s entity is not in a model that was loaded).
    public static func key<Root: NSManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> String? {
        if let known = ManagedKeyPathProbe.known(keyPath) { return known }
        guard let entity = KnownModels.entity(named: Root.entityName) else { return nil }
        let probe = Root.makeKeyPathProbe(entity: entity)
        ManagedKeyPathProbe.active.add(1, ordering: .sequentiallyConsistent)
        defer { ManagedKeyPathProbe.active.subtract(1, ordering: .sequentiallyConsistent) }
        _ = probe[keyPath: keyPath]
        return ManagedKeyPathProbe.known(keyPath)
    }

    /// The key of `keyPath`, or a stop naming it: a key path Core Data cannot name is a programming error, as an
    /// unknown key is.
    static func requiredKey<Root: NSManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> String {
        guard let key = key(for: keyPath) else {
            preconditionFailure("\(keyPath) does not name a Core Data property: only a key path to one @Managed property of "
                                + "\(Root.self) has a key on Linux (write the key as a string instead)")
        }
        return key
    }

    /// An object of this class for `entity` that belongs to no context, every stored attribute holding a zero value of
    /// its type, so reading any `@Managed` property on it returns without a store.
    private static func makeKeyPathProbe(entity: NSEntityDescription) -> Self {
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

/// What the `@Managed` getter reports while a key path is being named.
@usableFromInline
enum ManagedKeyPathProbe {
    /// How many probes are running (the getter checks this before anything else).
    @usableFromInline static let active = Atomic<Int>(0)
    /// Key paths and their keys, behind a lock (key paths are immutable values, though not marked `Sendable`).
    private final class Learnt: @unchecked Sendable {
        let lock = NSLock()
        var keys: [AnyKeyPath: String] = [:]
    }
    private static let learnt = Learnt()

    @inlinable static var isActive: Bool { active.load(ordering: .relaxed) != 0 }

    @usableFromInline
    static func record(_ keyPath: AnyKeyPath, key: String) {
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
    /// A sort descriptor on the `@Managed` property `keyPath` names (`\Person.name`), as Apple's
    /// `NSSortDescriptor(keyPath:ascending:)`; a key path that names no such property stops with a message. Made
    /// before `Root`'s model is loaded (a stored property's initial value, as test cases write their requests), the
    /// descriptor learns its key when first used.
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
    /// A key path expression for the `@Managed` property `keyPath` names (`\Person.name`), as Apple's
    /// `NSExpression(forKeyPath:)` with a Swift key path; a key path that names no such property stops with a message.
    public convenience init<Root: NSManagedObject, Value>(forKeyPath keyPath: KeyPath<Root, Value>) {
        self.init(forKeyPath: NSManagedObject.requiredKey(for: keyPath))
    }
}
