import CoreDataModel
import Synchronization

/// Swift subclasses registered for entities, so fetches return `Recipe` objects for entity `Recipe`.
private let subclassRegistry = Mutex<[String: NSManagedObject.Type]>([:])
/// Advances on every registration, so caches of `registeredClass(forEntity:)` know when they are stale.
private let subclassRegistryGeneration = Atomic<Int>(0)

extension NSManagedObject {
    /// Makes fetches and `object(with:)` return instances of `subclass` for `entityName` (and, unless they have
    /// their own, for its subentities). Swift on Linux cannot look classes up by name, so register them once.
    public static func register(_ subclass: NSManagedObject.Type, forEntityName entityName: String) {
        subclassRegistry.withLock { $0[entityName] = subclass }
        subclassRegistryGeneration.add(1, ordering: .releasing)
    }

    /// The entity `subclass` was registered for (the first by name when it was registered for several).
    static func registeredEntityName(for subclass: NSManagedObject.Type) -> String? {
        subclassRegistry.withLock { registry in
            registry.filter { $0.value == subclass }.keys.sorted().first
        }
    }

    /// Changes whenever a subclass is registered.
    static var subclassGeneration: Int { subclassRegistryGeneration.load(ordering: .acquiring) }

    static func registeredClass(forEntity entity: NSEntityDescription) -> NSManagedObject.Type {
        subclassRegistry.withLock { registry in
            var current: NSEntityDescription? = entity
            while let candidate = current {
                if let type = registry[candidate.name] { return type }
                current = candidate.superentity
            }
            return NSManagedObject.self
        }
    }

    /// Fills the fault from its context (see `NSManagedObjectContext.fulfillFault(for:)`); nothing without one.
    @inline(__always)
    final func fireFault() {
        // The context is reached unretained: it is alive while it is named here, and filling a fault runs no code of
        // the caller's that could release it.
        contextReference.withContext { $0.fulfillFault(for: self) }
    }

    /// Loads values from a snapshot.
    func fill(from snapshot: Snapshot) {
        storedValues = snapshot.values
        snapshotVersion = snapshot.version
        pendingValues = nil
    }

    /// Keeps the row a fetch (or a prefetch) read for this fault until the fault fires, taking the row's values
    /// without a copy.
    @inline(__always)
    func keepPending(_ snapshot: consuming Snapshot) {
        snapshotVersion = snapshot.version
        pendingValues = (consume snapshot).values
    }

    /// The row a fetch read for this fault and kept until the fault fires, or nil.
    var pendingSnapshot: Snapshot? {
        pendingValues.map { Snapshot(values: $0, version: snapshotVersion) }
    }
}
