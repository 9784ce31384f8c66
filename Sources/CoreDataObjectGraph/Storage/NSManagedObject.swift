import CoreDataModel
import Foundation
import KeyValueCoding

/// An object of a managed object context: the in-memory form of one row, with Apple's faulting and uniquing.
///
/// A fresh object is usually a *fault*: it knows its ID but holds no values until one is read, when the context
/// fulfils it from the row cache or the store. One context holds at most one object per ID.
/// Managed objects belong to their context's queue and are not `Sendable`; pass `objectID`s between threads.
open class NSManagedObject: Hashable, CustomStringConvertible, KeyValueCoding {
    // The stored state is declared here, in the storage room, because its hot part skips the runtime's exclusivity
    // checks (`MemorySafety.swift`, invariant 5); the rest of the class is in `ObjectGraph/NSManagedObject+*.swift`.
    @exclusivity(unchecked) public internal(set) var objectID: NSManagedObjectID

    /// Whether changing a property the model does not declare leaves the object without changes: true, Apple's default.
    /// Plain Swift properties are not observed here (no key-value observing), so they never mark an object changed and
    /// a subclass answering false changes nothing (docs/DEVIATIONS.md).
    open class var contextShouldIgnoreUnmodeledPropertyChanges: Bool { true }

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

    /// Creates an object of `entity`, inserted into `context` when one is given: Apple's designated initializer.
    /// Without a context the object is not a fault: it holds its default values from the start, so values set
    /// before `insert(_:)` are kept. As on Apple's platforms, contexts create the objects they fetch through this
    /// initializer too, so a subclass that adds initializers of its own overrides this one (and may keep it private).
    public init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        if let context, let pending = context.objectUnderConstruction, pending.objectID.entity === entity {
            // A context is creating this object for an ID it knows (`init(entity:objectID:context:slots:)`).
            context.objectUnderConstruction = nil
            objectID = pending.objectID
            slots = pending.slots
            if pending.registers {
                contextReference = UnownedContextReference(context)
                contextReference.register(self, as: objectID)
            } else {
                contextReference = UnownedContextReference(nil)
            }
            return
        }
        let slots = context?.persistentStoreCoordinator?.slots(for: entity) ?? PropertySlots(entity: entity)
        objectID = NSManagedObjectID(temporaryFor: entity)
        self.slots = slots
        contextReference = UnownedContextReference(nil)
        storedValues = slots.defaultValues
        if let context { context.insert(self) }
    }

    /// Creates an object for `entity` (its ID's), registered in `context` when `registers` (a fetched object or a
    /// fault) or left for `insert(_:)`; contexts create objects through `object(with:)`, fetches and inserts. It
    /// runs the class's `init(entity:insertInto:)`, which takes the ID and slots from the context. Without a
    /// context the object is a fault with `objectID`, registered nowhere.
    // Borrowed (`__shared`) arguments: the caller need not retain what the object does not keep.
    public required convenience init(entity: __shared NSEntityDescription, objectID: __shared NSManagedObjectID,
                                     context: __shared NSManagedObjectContext?, slots: __shared PropertySlots,
                                     registers: Bool = true) {
        assert(entity === objectID.entity, "an object's entity is its ID's")
        guard let context else {
            self.init(entity: entity, insertInto: nil)
            self.objectID = objectID
            storedValues = nil
            return
        }
        context.objectUnderConstruction = ObjectUnderConstruction(objectID: objectID, slots: slots, registers: registers)
        self.init(entity: entity, insertInto: context)
        // An override of init(entity:insertInto:) that passed another context (or none) to super left the ID
        // untaken: the object would have the wrong identity.
        precondition(context.objectUnderConstruction == nil,
                     "\(Self.self).init(entity:insertInto:) must pass the context it is given on to super.init(entity:insertInto:)")
    }

    /// Creates an object of this class's entity and inserts it into `context`, as Apple's `init(context:)`: the
    /// entity is taken from the context's model (`register(_:forEntityName:)` names it, else the class's name).
    /// Required, as Apple's initializers are callable from a metatype (`Model.Type(context:)`); declared here as
    /// Swift wants required initializers in the class itself.
    public required convenience init(context: NSManagedObjectContext) {
        let name = Self.entityName
        Self.noteSubclass(entityName: name)
        guard let model = context.persistentStoreCoordinator?.managedObjectModel,
              let entity = context.entity(named: name, in: model) else {
            preconditionFailure("An NSManagedObject of class '\(Self.self)' must have a valid NSEntityDescription: the context's "
                                + "model has no entity named '\(name)'")
        }
        self.init(entity: entity, insertInto: context)
    }

    deinit {
        // Any thread may run this (`MemorySafety.swift`, invariant 1).
        registration?.objectWillDeinitialize(self)
    }

    /// The value of a property, firing the fault if needed: numbers and booleans as `NSNumber` and decimals as
    /// `NSDecimalNumber`, as Apple's (so `as? Int16`, `as? Int`, `as? Double`, `as? Bool` succeed where they do there),
    /// other attributes as their Swift values (`String`, `Date`, `Data`, `UUID`, `URL`), a to-one destination as its
    /// object, a to-many relationship as `Set<NSManagedObject>` (or `[NSManagedObject]` when ordered). Unknown keys
    /// trap, as Apple's `valueForUndefinedKey:` raises. `value(forKey:as:)` reads a value in its own type instead.
    open func value(forKey key: String) -> Any? { propertyValue(forKey: key, bridged: true) }

    // MARK: Validation hooks

    /// Checks before an inserted object is saved: optionality, bounds, patterns and counts from the model.
    /// Override to add your own checks (call `super`); throw to refuse the save.
    open func validateForInsert() throws { try validateStoredProperties() }
    /// Checks before an updated object is saved; override as `validateForInsert()`.
    open func validateForUpdate() throws { try validateStoredProperties() }
    /// Checks before a deletion is saved; the default enforces Deny delete rules.
    open func validateForDelete() throws { try validateDenyRules() }

    // MARK: Lifecycle hooks (empty here; the context calls them where Apple's does, see `NSManagedObject+Lifecycle.swift`)

    /// Called once, when the object is first inserted into a context; set initial values here (with the primitive
    /// accessors to keep them out of undo). Call `super`.
    open func awakeFromInsert() {}
    /// Called when the object's values are first loaded from the store (a fault filled, or a fetch with values).
    open func awakeFromFetch() {}
    /// Called when the object's values were replaced from a snapshot: undo, rollback, refresh, a merge policy.
    open func awake(fromSnapshotEvents flags: NSSnapshotEventType) {}
    /// Called at the start of a save for each inserted, updated and deleted object, before validation.
    open func willSave() {}
    /// Called after a save for each object it wrote.
    open func didSave() {}
    /// Called when the object's deletion is processed, before its delete rules apply.
    open func prepareForDeletion() {}
    /// Called before the object turns back into a fault (refresh, a saved deletion).
    open func willTurnIntoFault() {}
    /// Called after the object turned back into a fault.
    open func didTurnIntoFault() {}

    // MARK: Identity

    public static func == (lhs: NSManagedObject, rhs: NSManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    open var description: String {
        let state = isFault ? "<fault>" : "{\(slots.properties.map(\.name).joined(separator: ", "))}"
        return "<\(entity.entityName): \(objectID.uriRepresentation().absoluteString)> \(state)"
    }
}

/// Managed objects live on their context's queue: the compiler refuses to send them elsewhere.
@available(*, unavailable)
extension NSManagedObject: @unchecked Sendable {}
