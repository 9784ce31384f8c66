import CoreDataModel
import Foundation
import UndoManagement

/// A scratch pad of managed objects on one queue: it fetches, fulfils faults, keeps one object per ID, and
/// (with the write half) tracks changes and saves them.
///
/// Reach a context only through `perform` and `performAndWait` (or from the main thread for a main-queue context);
/// objects it returns belong to its queue.
public final class NSManagedObjectContext: @unchecked Sendable {
    public enum ConcurrencyType: Sendable {
        /// The context runs on the main queue (the UI's).
        case mainQueueConcurrencyType
        /// The context owns a private serial queue.
        case privateQueueConcurrencyType
    }

    public let concurrencyType: ConcurrencyType
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        didSet { coordinatorStatistics = persistentStoreCoordinator?.statistics }
    }
    /// The coordinator's statistics, kept apart for firing faults: reaching them through the coordinator retained and
    /// released it, and stores refer to their coordinator weakly, so each of those took the runtime's slow path.
    @exclusivity(unchecked) var coordinatorStatistics: CoreDataStatistics?
    /// A name for debugging and for the SQL log.
    public var name: String?
    // Read on every change of every object (exclusivity: see `changedObjects`).
    /// Records every change so it can be undone; nil (the default) records nothing.
    @exclusivity(unchecked) public var undoManager: UndoManager?
    /// How a save resolves optimistic-locking conflicts; `.error` (the default) fails the save and lists them.
    public var mergePolicy: NSMergePolicy = .error
    /// The context a child context saves into; a child's fetches see its parent's unsaved changes.
    public var parent: NSManagedObjectContext? {
        didSet { if let parent { persistentStoreCoordinator = parent.persistentStoreCoordinator } }
    }

    /// Whether the context merges the saves of its parent (or, for a context on a coordinator, of the other contexts on
    /// that coordinator) by itself, on its own queue (see `NSManagedObjectContext+AutomaticMerging.swift`).
    public var automaticallyMergesChangesFromParent = false {
        didSet { if automaticallyMergesChangesFromParent != oldValue { automaticMergingChanged() } }
    }
    /// The did-save observer of automatic merging.
    var automaticMergeObserver: (any NSObjectProtocol)?
    /// How old, in seconds, a cached row may be to fill a fault: 0 always reads the store; negative (the default)
    /// takes any cached row.
    public var stalenessInterval: TimeInterval = -1
    /// Apple's switch between deleting and raising for a fault whose row is gone; this library does neither (the
    /// object reads nil and `faultingError` says why, docs/DEVIATIONS.md), so the value is kept but not consulted.
    public var shouldDeleteInaccessibleFaults = true
    /// Whether the context keeps every object it hands out alive (false: only changed ones, as Apple's default).
    public var retainsRegisteredObjects = false {
        didSet { retainedObjects = retainsRegisteredObjects ? Set(registry.liveObjects) : [] }
    }
    /// The objects `retainsRegisteredObjects` keeps.
    var retainedObjects: Set<NSManagedObject> = []
    /// Whether `processPendingChanges()` applies the delete rules (cascade, nullify) of the objects deleted during the
    /// event, as Apple's default does; false leaves them to the next save, which applies them before validating.
    public var propagatesDeletesAtEndOfEvent = true
    /// Set while a save runs: its `processPendingChanges()` applies delete rules whatever
    /// `propagatesDeletesAtEndOfEvent` says.
    @exclusivity(unchecked) var isSavingDeletes = false
    /// The program's own values kept with the context (Apple's `userInfo`); the context never reads them.
    public let userInfo = NSMutableDictionary()
    /// The objects `detectConflicts(for:)` marked for the next successful save to check.
    var conflictDetectedObjects: Set<NSManagedObject> = []
    /// The lock of Apple's deprecated `lock()`, `unlock()` and `tryLock()` (NSLocking).
    let lockingLock = NSRecursiveLock()
    /// The author recorded with this context's saves in persistent history (no store here writes history yet).
    public var transactionAuthor: String?
    /// A migration saves its batches before their relationships exist and validates every object at the end.
    @exclusivity(unchecked) var skipsValidationOnSave = false

    /// Registered objects, not kept alive: an object nobody references leaves the context (Core Data keeps only
    /// changed objects alive, so a browser scrolling a million rows stays within bounded memory).
    let registry = ObjectRegistry()

    // The change-tracking state below is touched on every change of every object, on the context's queue only:
    // `@exclusivity(unchecked)`: see `MemorySafety.swift`, invariant 5.
    /// Objects with unsaved changes, held strongly until they are saved or rolled back.
    @exclusivity(unchecked) var changedObjects = TrackedObjects(.changed)
    /// Changed objects not yet announced by an objects-did-change notification.
    @exclusivity(unchecked) var unpostedChanges = TrackedObjects(.unposted)
    /// Whether a `processPendingChanges()` waits for the main run loop's next turn (main-queue contexts only; see
    /// `NSManagedObjectContext+RunLoop.swift`).
    var processingAwaitsRunLoop = false
    /// Deleted objects whose delete rules have not been applied yet.
    @exclusivity(unchecked) var pendingDeletions: [NSManagedObject] = []
    /// The objects the objects-did-change notification being posted announces (nil between notifications), for
    /// `changedValuesForCurrentEvent()` in its observers.
    @exclusivity(unchecked) var announcedObjects: AnnouncedObjects?
    /// The class and slots of the entity whose object was created last: fetches create many objects of one entity
    /// in a row, and finding them costs two locks and a walk up the entity's ancestors.
    @exclusivity(unchecked) var lastObjectShape: (entity: ObjectIdentifier, coordinator: ObjectIdentifier, generation: Int,
                                  type: NSManagedObject.Type, slots: PropertySlots)?
    /// The entity `insertNewObject(forEntityName:into:)` found last, by name and model: inserts come in runs of one
    /// entity, and comparing a short name costs less than hashing it.
    @exclusivity(unchecked) var lastEntityByName: (name: String, model: NSManagedObjectModel, generation: Int,
                                                           entity: NSEntityDescription)?
    /// The ID and slots of the object this context is creating (see `NSManagedObject.init(entity:insertInto:)`):
    /// set by the materializing initializer just before it calls the designated one, which takes them.
    @exclusivity(unchecked) var objectUnderConstruction: ObjectUnderConstruction?
    let queue: DispatchQueue
    let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueueConcurrencyType: queue = .main
        case .privateQueueConcurrencyType: queue = DispatchQueue(label: "OpenCoreData.NSManagedObjectContext")
        }
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    /// A private-queue context on `other`'s queue, so that one block may use both (the migration manager's source
    /// and destination contexts, used together by policies as Apple's confined contexts are).
    init(sharingQueueOf other: NSManagedObjectContext) {
        concurrencyType = .privateQueueConcurrencyType
        queue = other.queue
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        if let automaticMergeObserver { NotificationCenter.default.removeObserver(automaticMergeObserver) }
        // Objects refer to their context unretained (see `NSManagedObject.contextReference`): every object that names
        // this context is in its registry, and learns here that the context is gone. Prefetched destinations can form
        // cycles between objects (as fulfilled relationships do in Core Data, where `reset()` breaks them); a context
        // that goes away breaks them for its objects.
        for object in registry.liveObjects {
            object.managedObjectContext = nil
            object.sideState?.prefetchedDestinations.removeAll()
        }
    }
}
