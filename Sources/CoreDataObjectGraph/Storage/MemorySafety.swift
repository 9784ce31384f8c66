// The storage room (Sources/UnsafeRoom/README.md): every identity and memory trick of the object graph lives in
// this folder, compiled into CoreDataObjectGraph, and nothing outside the room spells `Unmanaged`,
// `swift_tryRetain`, `_withUnsafeGuaranteedRef` or raw object addresses. Each trick is behind a small type whose safe interface the rest of the module uses; their invariants are stated here, once, and checked
// by `checkInvariants()` in debug builds (`Storage+Invariants.swift`, called from the tests).
//
// 1. Registry entries (`ObjectRegistry`, `RegistryBlocks`, `RegistryTable`). A context's registry files each of its
//    objects' addresses unretained, at most one per object ID, so that objects nobody uses go away as Core Data's
//    do, without the side table a `weak` reference gives every object. An address in a table is that of an object
//    whose `deinit` has not yet finished removing it: every object removes its own entry in `deinit`
//    (`objectWillDeinitialize(_:)`), under the registry's lock, before any of its storage is destroyed. Entries are
//    read and written only under that lock, so while the lock is held a filed object's memory and its `objectID` are
//    valid. A lookup hands out an object only through `swift_tryRetain` (the `CSwiftRuntime` shim), which refuses an
//    object whose deinitialisation has begun; such an entry counts as absent. Nothing that may release a managed
//    object runs under the lock. An object's `registrySlot` names the block slot its address is in, or -1 for the
//    hashed table.
// 2. Context back-pointers (`UnownedContextReference`). An object that names a context is listed in that context's
//    registry; the context clears the reference of every object it lists when it resets or is deinitialised, and an
//    object whose entry another object takes forgets its context. So a context an object names is alive.
// 3. Store identifiers (`InternedStoreIdentifier`, held by IDs as `UnretainedReference`). Interned identifiers are
//    never freed, so an ID's unretained reference never dangles, and two IDs name the same store exactly when they
//    hold the same interned object.
// 4. Plan-owned tables (`SlotDecoderTable`, `SlotDecoder`'s destination entity, `NameLookup`'s keys). A table owns its
//    memory for its whole life and is immutable after it is built; a decoder's entity is kept alive by the select
//    plan that holds the decoder (`SelectPlan.describedObjects`). `SlotDecoder` holds no owning reference, so the
//    table frees its memory without deinitialising it.
// 5. `@exclusivity(unchecked)` marks the hot state of managed objects and contexts: that state belongs to the
//    context's queue, and no access to it spans a call that could reach it again, so the runtime's dynamic
//    exclusivity checks are skipped for it. Swift takes the attribute only on a stored property's own declaration,
//    so `NSManagedObject` and `NSManagedObjectContext` are declared in this folder (stored state, initialisers and
//    the members subclasses override) and extended elsewhere. It earns its place by the object-fetch and save
//    benchmarks (docs/BENCHMARKS.md, "Storage room"); a save's own counters (`SaveWriter`) did not, and run checked.
