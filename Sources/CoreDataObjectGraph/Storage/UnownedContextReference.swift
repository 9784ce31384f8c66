/// An object's reference to the context that registered it, unretained.
///
/// Not `weak`: the first weak reference to an object gives it a side table, after which every retain and release of
/// the object takes the runtime's slow path. Safe by invariant 2 of `MemorySafety.swift`: an object that names a
/// context is listed in that context's registry, and the context clears the reference of every object it lists
/// when it resets or is deinitialised, so a named context is always alive.
struct UnownedContextReference {
    private var reference: Unmanaged<NSManagedObjectContext>?

    @inline(__always)
    init(_ context: NSManagedObjectContext?) {
        reference = context.map(Unmanaged.passUnretained)
    }

    /// The context, retained for as long as the caller keeps it; nil once it is gone or has reset.
    @inline(__always)
    var context: NSManagedObjectContext? { reference?.takeUnretainedValue() }

    /// Whether a context is named.
    @inline(__always)
    var isSet: Bool { reference != nil }

    /// Runs `body` with the context, if any, without retaining it: the object that holds this reference must stay
    /// registered (and so the context alive) while `body` runs.
    @inline(__always)
    /// Whether no context is named (the object was never inserted, or left its context).
    var isEmpty: Bool { reference == nil }

    func withContext(_ body: (NSManagedObjectContext) -> Void) {
        reference?._withUnsafeGuaranteedRef(body)
    }

    /// Files `object` under `id` in the named context's registry, if a context is named, reaching the context and
    /// its registry without retaining either (the caller holds the context, and the context its registry).
    @inline(__always)
    func register(_ object: NSManagedObject, as id: NSManagedObjectID) {
        reference?._withUnsafeGuaranteedRef { context in
            Unmanaged.passUnretained(context.registry)._withUnsafeGuaranteedRef { $0.insert(object, for: id) }
        }
    }
}
