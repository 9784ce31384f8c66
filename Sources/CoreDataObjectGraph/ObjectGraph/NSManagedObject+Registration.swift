import CoreDataModel
import Foundation
import Synchronization

/// How entities find their Swift subclasses, so fetches return `Recipe` objects for entity `Recipe`.
///
/// Apple's Core Data asks the Objective-C runtime for the class named by the entity's `managedObjectClassName`.
/// Swift on Linux can look a class up by its qualified name (`Module.Recipe`, through `NSClassFromString`) but not by
/// its bare name, which is what Xcode writes for a class in the app's own module. So an entity's class is, in order:
/// a class registered for it (`register(_:forEntityName:)`); a class of that name that the program has named already
/// (`Recipe(context:)`, `Recipe.fetchRequest()`, `Recipe.entity()`, or `register(_:)` with a list); the class
/// `NSClassFromString` finds for the qualified name, or for the bare name in the modules of the subclasses named so
/// far and in the executable's own module; the class named through this entity (for models without class names);
/// the same for the superentity; else `NSManagedObject`.
private struct SubclassRegistry {
    /// Registered explicitly, by entity name; these win.
    var byEntity: [String: NSManagedObject.Type] = [:]
    /// Named by the program (a typed API or a list registration), by bare class name and by qualified name.
    var byClassName: [String: NSManagedObject.Type] = [:]
    /// Classes named through their entity (`Recipe(context:)` finds entity `Recipe`), by entity name: used for an
    /// entity whose `managedObjectClassName` names no class (a model built in code has none).
    var byNamedEntity: [String: NSManagedObject.Type] = [:]
    /// The modules that declare the classes named so far: where bare class names are looked up.
    var modules: [String] = []
    /// Classes already noted, so naming one again costs one lookup.
    var noted: Set<ObjectIdentifier> = []
    /// What `managedObjectClassName` resolved to, by name (nil: no class of that name), until the next registration.
    var resolved: [String: NSManagedObject.Type?] = [:]
}

private let subclassRegistry = Mutex(SubclassRegistry())
/// Advances on every registration, so caches of `registeredClass(forEntity:)` know when they are stale.
private let subclassRegistryGeneration = Atomic<Int>(0)

extension NSManagedObject {
    /// Makes fetches and `object(with:)` return instances of `subclass` for `entityName` (and, unless they have
    /// their own, for its subentities). Needed only when the class is not the one the entity's
    /// `managedObjectClassName` names, or has another name.
    public static func register(_ subclass: NSManagedObject.Type, forEntityName entityName: String) {
        subclassRegistry.withLock { registry in
            registry.byEntity[entityName] = subclass
            registry.resolved = [:]
        }
        subclassRegistryGeneration.add(1, ordering: .releasing)
        subclass.noteSubclass(entityName: nil)
    }

    /// Makes the classes of a model known by name in one call, for the entities whose `managedObjectClassName`
    /// names them (Xcode writes the bare class name): `NSManagedObject.register([Recipe.self, Chef.self, Tag.self])`.
    /// Only needed when objects are fetched before the program has named their class in any other way
    /// (`Recipe(context:)`, `Recipe.fetchRequest()`, `Recipe.entity()`).
    public static func register(_ subclasses: [NSManagedObject.Type]) {
        for subclass in subclasses { subclass.noteSubclass(entityName: nil) }
    }

    /// Remembers `Self` by name (and, given `entityName`, as the class of that entity unless one was registered
    /// for it): the typed APIs call this, so a class the program uses is found without a registration.
    @inline(__always)
    static func noteSubclass(entityName: String?) {
        let id = ObjectIdentifier(self)
        guard subclassRegistry.withLock({ !$0.noted.contains(id) }) else { return }
        let qualified = String(reflecting: self)
        let bare = qualified.split(separator: ".").last.map(String.init) ?? qualified
        subclassRegistry.withLock { registry in
            registry.noted.insert(id)
            registry.byClassName[bare] = registry.byClassName[bare] ?? self
            registry.byClassName[qualified] = self
            if let entityName { registry.byNamedEntity[entityName] = self }
            if let module = qualified.split(separator: ".").first.map(String.init), !registry.modules.contains(module) {
                registry.modules.append(module)
            }
            registry.resolved = [:]
        }
        subclassRegistryGeneration.add(1, ordering: .releasing)
    }

    /// The entity `subclass` was registered for (the first by name when it was registered for several), or the one
    /// it was named through.
    static func registeredEntityName(for subclass: NSManagedObject.Type) -> String? {
        subclassRegistry.withLock { registry in
            registry.byEntity.filter { $0.value == subclass }.keys.sorted().first
                ?? registry.byNamedEntity.filter { $0.value == subclass }.keys.sorted().first
        }
    }

    /// Changes whenever a subclass is registered.
    static var subclassGeneration: Int { subclassRegistryGeneration.load(ordering: .acquiring) }

    static func registeredClass(forEntity entity: NSEntityDescription) -> NSManagedObject.Type {
        subclassRegistry.withLock { registry in
            var current: NSEntityDescription? = entity
            while let candidate = current {
                if let type = registry.byEntity[candidate.entityName] { return type }
                if let className = candidate.representedClassName, let type = registry.resolve(className) { return type }
                if let type = registry.byNamedEntity[candidate.entityName] { return type }
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
        if _slowPath(contextReference.isEmpty) {
            fireFaultWithoutContext()
            return
        }
        contextReference.withContext { $0.fulfillFault(for: self) }
    }

    /// A fault whose context let it go (`reset()`, a removed store) fires as Apple's does: it is no longer a fault,
    /// its values read nil, and `faultingError` says why.
    private func fireFaultWithoutContext() {
        guard storedValues == nil else { return }
        faultingError = CoreDataError(.managedObjectReferentialIntegrity,
                                      "\(objectID.uriRepresentation().absoluteString): the object has no context any more (its context was "
                                          + "reset or it was removed), so its values cannot be read; fetch it again in a context")
        fill(from: Snapshot(values: Array(repeating: .null, count: slots.count), version: 0))
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

extension SubclassRegistry {
    /// The subclass `className` (an entity's `managedObjectClassName`) names, or nil for `NSManagedObject` itself
    /// and for names no class answers to.
    mutating func resolve(_ className: String) -> NSManagedObject.Type? {
        if className == "NSManagedObject" || className.isEmpty { return nil }
        if let known = byClassName[className] { return known }
        if let cached = resolved[className] { return cached }
        var found: NSManagedObject.Type?
        if className.contains(".") {
            found = NSClassFromString(className) as? NSManagedObject.Type
        } else {
            for module in modules + [Self.executableModule] where found == nil {
                found = NSClassFromString("\(module).\(className)") as? NSManagedObject.Type
            }
        }
        resolved[className] = .some(found)
        return found
    }

    /// The module name SwiftPM gives the executable's main target (its product name, `-` as `_`).
    static let executableModule: String = {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent
        return name.replacingOccurrences(of: "-", with: "_")
    }()
}
