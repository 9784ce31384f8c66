import CoreDataModel
import Foundation
import Synchronization

/// The models of the coordinators made so far (weakly), for `NSManagedObject.entity()` and `init(context:)` to find a
/// subclass's entity in, as Apple's look in the models the process has loaded.
enum KnownModels {
    private final class WeakModel: @unchecked Sendable {
        weak var model: NSManagedObjectModel?
        init(_ model: NSManagedObjectModel) { self.model = model }
    }
    private static let models = Mutex<[WeakModel]>([])

    static func note(_ model: NSManagedObjectModel) {
        models.withLock { list in
            list.removeAll { $0.model == nil || $0.model === model }
            list.append(WeakModel(model))
        }
    }

    /// The models of this program still alive, the most recently used last.
    static var allModels: [NSManagedObjectModel] {
        models.withLock { list in list.compactMap(\.model) }
    }

    /// The entity called `name` in the most recently used model that has one.
    static func entity(named name: String) -> NSEntityDescription? {
        models.withLock { list in list.reversed().lazy.compactMap { $0.model?.entitiesByName[name] }.first }
    }
}

/// Lets `Subclass.fetchRequest()` return a request typed for the subclass (`NSFetchRequest<Subclass>`), which a class
/// method cannot spell with `Self`.
public protocol ManagedObjectSubclass: NSManagedObject {}

extension NSManagedObject: ManagedObjectSubclass {}

extension ManagedObjectSubclass {
    /// A fetch request for the subclass's entity, typed for the subclass, as Xcode's generated
    /// `fetchRequest()` is: `let request: NSFetchRequest<Person> = Person.fetchRequest()`.
    public static func fetchRequest() -> NSFetchRequest<Self> {
        let name = Self.entityName
        Self.noteSubclass(entityName: name)
        return NSFetchRequest<Self>(entityName: name)
    }
}

extension NSManagedObject {
    /// The name of the entity this class is registered for (`register(_:forEntityName:)`), else the class's own name,
    /// as Xcode names a class after its entity. Naming it through the typed APIs below makes the class known, so fetches
    /// of its entity return it without a registration (see `registeredClass(forEntity:)`).
    static var entityName: String {
        registeredEntityName(for: self) ?? String(describing: self).components(separatedBy: ".").last!
    }

    /// The entity this class stands for, found in the models of the coordinators made so far, as Apple's class
    /// method finds it in the loaded models. When no model has it (`NSManagedObject` itself, a class no entity
    /// names, or no model loaded yet), Apple's logs "+entity is confused" and returns nil, which Swift code reads as
    /// an entity without a name (`entity().name == nil`); this returns such an entity, unnamed and empty, and
    /// `init(context:)` still refuses a class without an entity.
    public class func entity() -> NSEntityDescription {
        noteSubclass(entityName: entityName)
        guard let entity = KnownModels.entity(named: entityName) else { return NSEntityDescription() }
        return entity
    }

    // MARK: Primitive accessors and change notification

    /// The stored value of `key`, as `value(forKey:)` reads it (custom accessors call this to skip their own logic).
    public func primitiveValue(forKey key: String) -> Any? { propertyValue(forKey: key, bridged: true) }

    /// Sets the stored value of `key`. Unlike Apple's, the change is tracked (and undoable) as `setValue(_:forKey:)`
    /// does, since this library keeps no separate snapshot to compare at save time (docs/DEVIATIONS.md).
    public func setPrimitiveValue(_ value: Any?, forKey key: String) { setValue(value, forKey: key) }

    /// Fires the fault before a custom accessor reads a primitive value.
    public func willAccessValue(forKey key: String?) { if storedValues == nil { fireFault() } }
    /// Balances `willAccessValue(forKey:)`; nothing to do.
    public func didAccessValue(forKey key: String?) {}
    /// Fires the fault before a custom setter changes a primitive value; the change itself is tracked by the setter.
    public func willChangeValue(forKey key: String) { if storedValues == nil { fireFault() } }
    /// Balances `willChangeValue(forKey:)`; the change was tracked when it was made.
    public func didChangeValue(forKey key: String) {}

    /// Whether the object has unsaved changes to persistent properties (transient ones do not count).
    public var hasPersistentChangedValues: Bool {
        !changes.changedSlots.isEmpty || !changes.committedToMany.isEmpty || (changes.isInserted && !changes.isDeleted)
    }

    /// 0 when the object is realized and not turning into or out of a fault, as Apple's; 1 while it is a fault (code
    /// reads `faultingState == 0` to ignore changes an object reports while it is not fully there).
    public var faultingState: Int { isFault ? 1 : 0 }
}
