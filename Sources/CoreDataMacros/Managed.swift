/// Declares a property of a managed object subclass backed by its entity's property of the same name, as Apple's
/// `@NSManaged` does (which needs the Objective-C runtime). Only the attribute changes when porting:
///
/// ```swift
/// public class Recipe: NSManagedObject {
///     @Managed public var name: String?
///     @Managed public var minutes: Int16
///     @Managed public var chef: Chef?
///     @Managed public var tags: Set<Tag>            // or NSSet?
///     @Managed public var ingredients: NSOrderedSet?
/// }
/// ```
///
/// The macro writes the getter and setter, which read and write through `managedValue(forKey:keyPath:)` and
/// `setManagedValue(_:forKey:)`: attributes in their declared Swift type (any integer type for an integer
/// attribute), to-one relationships as the destination's class, to-many ones as `Set<Destination>`, `NSSet` or
/// (ordered) `NSOrderedSet` or `[Destination]`. `@Managed("other_key")` names a property of another name.
///
/// A property named `primitive<Key>` (`@Managed private var primitiveUpdatedAt: Date`) is the primitive accessor of
/// `<key>`, as Apple's `@NSManaged var primitiveUpdatedAt` is: it reads and writes `updatedAt`'s stored value.
///
@attached(accessor)
public macro Managed() = #externalMacro(module: "CoreDataMacrosPlugin", type: "ManagedMacro")

/// `@Managed` with the entity's property named explicitly, for a Swift property of another name.
@attached(accessor)
public macro Managed(_ key: String) = #externalMacro(module: "CoreDataMacrosPlugin", type: "ManagedMacro")

/// Writes the body of one of the accessors Xcode generates for a to-many relationship, which Apple's source declares
/// `@objc(addTagsObject:) @NSManaged` (a selector, which Linux has not; a macro attached to a function must be another
/// macro than the one attached to a property, so the attribute has its own name):
///
/// ```swift
/// extension Recipe {
///     @ManagedAccessor public func addToTags(_ value: Tag)
///     @ManagedAccessor public func removeFromTags(_ value: Tag)
///     @ManagedAccessor public func addToTags(_ values: NSSet)
///     @ManagedAccessor public func removeFromTags(_ values: NSSet)
///     // ordered relationships: insertInto<Name>(_:at:), removeFrom<Name>(at:), replace<Name>(at:with:), with an
///     // `Int` or an `NSIndexSet`, and addTo<Name>/removeFrom<Name> with an `NSOrderedSet`
/// }
/// ```
///
/// The relationship is the function's name after `addTo`, `removeFrom`, `insertInto` or `replace`, its first letter
/// lowercased (`Tags` → `tags`); `@ManagedAccessor("key")` names another. The body calls `mutableSetValue(forKey:)`
/// or `mutableOrderedSetValue(forKey:)`, which maintain the inverse and register undo.
@attached(body)
public macro ManagedAccessor() = #externalMacro(module: "CoreDataMacrosPlugin", type: "ManagedAccessorMacro")

/// `@ManagedAccessor` with the relationship named explicitly.
@attached(body)
public macro ManagedAccessor(_ key: String) = #externalMacro(module: "CoreDataMacrosPlugin", type: "ManagedAccessorMacro")
