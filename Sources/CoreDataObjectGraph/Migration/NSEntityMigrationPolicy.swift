import CoreDataModel
import Foundation
import Predicates
import Synchronization

/// The variable names a mapping's value expressions use (Apple's `NSMigration…Key` constants).
public let NSMigrationManagerKey = "manager"
public let NSMigrationSourceObjectKey = "source"
public let NSMigrationDestinationObjectKey = "destination"
public let NSMigrationEntityMappingKey = "entityMapping"
public let NSMigrationPropertyMappingKey = "propertyMapping"
public let NSMigrationEntityPolicyKey = "entityPolicy"

/// What happens to the instances of one entity mapping during a migration (Apple's `NSEntityMigrationPolicy`).
///
/// The manager runs three phases over the mapping model's entity mappings, in order: it creates every destination
/// instance (`createDestinationInstances(forSource:in:manager:)`), then their relationships
/// (`createRelationships(forDestination:in:manager:)`), then validates (`performCustomValidation(forMapping:manager:)`).
/// Subclass to change a step and call `super` for the default; an entity mapping names its policy class in
/// `entityMigrationPolicyClassName` (a module-qualified Swift class name) or through ``register(_:forClassName:)``.
/// A policy's own methods are reached from value expressions as `FUNCTION($entityPolicy, "name:", …)` by overriding
/// ``evaluateFunction(_:arguments:)``.
open class NSEntityMigrationPolicy: ExpressionFunctionReceiver {
    public required init() {}

    /// Called before the first phase touches `mapping`.
    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    /// Creates the destination instance of `sInstance`: a new object of the mapping's destination entity whose
    /// attributes are the attribute mappings' value expressions, associated with its source.
    open func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                         manager: NSMigrationManager) throws {
        try manager.createDefaultDestinationInstance(forSource: sInstance, in: mapping, policy: self)
    }

    /// Called when every destination instance of `mapping` exists.
    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Sets the relationships of `dInstance` from the relationship mappings' value expressions; a source object an
    /// expression yields stands for its destination instance.
    open func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
                                  manager: NSMigrationManager) throws {
        try manager.createDefaultRelationships(forDestination: dInstance, in: mapping, policy: self)
    }

    /// Called when every relationship of `mapping`'s destination instances is set.
    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Checks of your own before the destination is validated and saved.
    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Called last for `mapping`.
    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// `FUNCTION($entityPolicy, "selector:", …)` in a value expression. Override to offer your own methods; the
    /// default knows none and throws.
    open func evaluateFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
        throw CoreDataError(.migration, "\(type(of: self)) has no function \(selector) for a value expression; override evaluateFunction(_:arguments:)")
    }
}

extension NSEntityMigrationPolicy {
    private static let registered = Mutex<[String: NSEntityMigrationPolicy.Type]>([:])

    /// Makes `policy` the class that entity mappings naming `className` use (for names `NSClassFromString` cannot
    /// resolve, such as classes of a program's main module).
    public static func register(_ policy: NSEntityMigrationPolicy.Type, forClassName className: String) {
        registered.withLock { $0[className] = policy }
    }

    /// The policy class `name` stands for: a registered one, else the class of that name.
    static func policyClass(named name: String) -> NSEntityMigrationPolicy.Type? {
        if let policy = registered.withLock({ $0[name] }) { return policy }
        return NSClassFromString(name) as? NSEntityMigrationPolicy.Type
    }
}
