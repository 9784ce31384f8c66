/// A weak reference to an entity that leaves the entity without a side table.
///
/// Swift gives an object a side table the first time anything refers to it weakly, and from then on every retain and
/// release of the object goes through that table (the runtime's slow path). Every managed object ID retains its
/// entity, so a fetch would pay the slow path twice per row.
/// The back references of a model (a property's entity, a relationship's destination, a superentity) therefore point
/// weakly at a small stand-in that each entity owns, `EntityReferenceTarget`, and reach the entity through it: the
/// stand-in goes away with its entity, so the reference reads nil afterwards, as a weak one does.
struct WeakEntityReference {
    private weak var target: EntityReferenceTarget?

    init(_ entity: NSEntityDescription?) {
        target = entity?.referenceTarget
    }

    var entity: NSEntityDescription? { target?.entity }
}

/// The stand-in weak references to an entity point at (see `WeakEntityReference`). Only its entity holds it strongly
/// (a weak reference holds it for the duration of one read), so it lives exactly as long as the entity.
final class EntityReferenceTarget: @unchecked Sendable {
    // `unowned` keeps the entity free of a side table too (it counts in the entity's inline reference count).
    unowned let entity: NSEntityDescription

    init(_ entity: NSEntityDescription) {
        self.entity = entity
    }
}
