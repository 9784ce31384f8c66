import Foundation

extension NSManagedObject {
    /// The part of an object's state that most objects never need, in its own allocation so the object itself stays
    /// small: a large fetch is bound by the memory it touches, and four empty dictionaries and an error existential
    /// in every object would cost memory and initialisation for state few objects use.
    final class SideState {
        /// Loaded to-many relationships, by name: destination IDs in order (see `ToManyIDs`).
        var toMany: [String: ToManyIDs] = [:]
        /// Values of transient properties, by name.
        var transientValues: [String: Any] = [:]
        /// Destinations a fetch prefetched through this object's relationships (or a read of a to-many fulfilled), by
        /// relationship name, kept alive with it as Core Data's fulfilled relationships keep theirs: their rows wait in them, so reading them needs no
        /// query even after the row cache has moved on. A later prefetch of the same relationship replaces its
        /// entry; all are released when the object turns back into a fault.
        var prefetchedDestinations: [String: [NSManagedObject]] = [:]
        /// Why the last fault could not be fulfilled (the row is gone, an external file is missing); nil when it was.
        var faultingError: (any Error)?
        /// Transformable attributes' values, by slot, with the stored bytes they were read from or transformed into
        /// (a value is reused only while its slot holds the same bytes).
        var transformedValues: [Int: (data: Data, value: Any?)] = [:]
        /// The stored values when the current event's first change was made, for an object whose earlier changes an
        /// objects-did-change notification already announced; nil when the committed values are the starting point.
        var eventStartValues: [StoredValue]?
        /// The to-many relationships changed since the current event began.
        var eventToManyChanges: Set<String> = []
        /// Fetched properties' results, by name, kept until the object is refreshed or turns into a fault.
        var fetchedProperties: [String: [NSManagedObject]] = [:]

        /// Forgets what turning into a fault releases: relationships, transient values, prefetched destinations.
        func releaseLoadedState() {
            toMany.removeAll()
            releaseTransientState()
        }

        /// Forgets what turning into a fault releases except the to-many relationships: an inserted object's lists
        /// exist nowhere else (see `turnInsertedObjectIntoFault()`).
        func releaseTransientState() {
            transientValues.removeAll()
            prefetchedDestinations.removeAll()
            transformedValues.removeAll()
            fetchedProperties.removeAll()
        }
    }

    /// The side state, allocated on first use.
    private var ensuredSideState: SideState {
        if let sideState { return sideState }
        let created = SideState()
        sideState = created
        return created
    }

    /// Loaded to-many relationships, by name (empty until one loads).
    final var toMany: [String: ToManyIDs] {
        get { sideState?.toMany ?? [:] }
        _modify { yield &ensuredSideState.toMany }
    }

    /// Values of transient properties, by name.
    final var transientValues: [String: Any] {
        get { sideState?.transientValues ?? [:] }
        _modify { yield &ensuredSideState.transientValues }
    }

    /// The stored values at the current event's first change (see `SideState.eventStartValues`).
    final var eventStartValues: [StoredValue]? {
        get { sideState?.eventStartValues }
        set { ensuredSideState.eventStartValues = newValue }
    }

    /// The to-many relationships changed since the current event began.
    final var eventToManyChanges: Set<String> {
        get { sideState?.eventToManyChanges ?? [] }
        _modify { yield &ensuredSideState.eventToManyChanges }
    }

    /// Fetched properties' results, by name.
    final var fetchedProperties: [String: [NSManagedObject]] {
        get { sideState?.fetchedProperties ?? [:] }
        _modify { yield &ensuredSideState.fetchedProperties }
    }

    /// Transformable attributes' values, by slot, with the bytes they stand for.
    final var transformedValues: [Int: (data: Data, value: Any?)] {
        get { sideState?.transformedValues ?? [:] }
        _modify { yield &ensuredSideState.transformedValues }
    }

    /// Destinations prefetched through this object's relationships, by relationship name.
    final var prefetchedDestinations: [String: [NSManagedObject]] {
        get { sideState?.prefetchedDestinations ?? [:] }
        _modify { yield &ensuredSideState.prefetchedDestinations }
    }

    /// Why the last fault could not be fulfilled (the row is gone, an external file is missing); nil when it was.
    public internal(set) final var faultingError: (any Error)? {
        get { sideState?.faultingError }
        set {
            if newValue == nil, sideState == nil { return }
            ensuredSideState.faultingError = newValue
        }
    }
}
