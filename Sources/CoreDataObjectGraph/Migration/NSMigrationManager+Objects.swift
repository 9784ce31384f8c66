import CoreDataModel
import Foundation
import KeyValueCoding
import Predicates

/// The object-by-object migration of a mapping model that SQL cannot run: value expressions beyond `$source.<key>`
/// copies, `FUNCTION($manager, …)` calls, and entity migration policies. Apple's three phases, over a source context
/// on the source store and a destination context on a new store, in batches (`NSMigrationManager+Phases.swift`);
/// the associations between source and destination instances are kept as store keys (`MigrationAssociations`).
extension NSMigrationManager {
    /// The contexts and associations of a running migration.
    final class ObjectMigration {
        let sourceContext: NSManagedObjectContext
        let destinationContext: NSManagedObjectContext
        let sourceStore: InternedStoreIdentifier
        let destinationStore: InternedStoreIdentifier
        /// Whether each batch is saved and both contexts reset (a SQLite destination); otherwise batches only get
        /// permanent IDs and everything is saved at the end (an atomic store writes its whole file at every save).
        let savesInBatches: Bool
        /// The associations of saved (or permanently keyed) destination instances.
        var associations = MigrationAssociations()
        /// The current batch's associations, whose destination instances have temporary IDs until the batch ends.
        var pending: [(mapping: String, source: NSManagedObject, destination: NSManagedObject)] = []
        /// By mapping name: source object ID → the pending destination instances made from it.
        var pendingBySource: [String: [NSManagedObjectID: [NSManagedObject]]] = [:]
        /// By mapping name: pending destination instance → its source objects.
        var pendingByDestination: [String: [ObjectIdentifier: [NSManagedObject]]] = [:]
        var currentEntityMapping: NSEntityMapping?
        /// Value expressions checked against their source entity, by entity name and expression object (held here, so
        /// that its identifier is not reused): each is checked once per migration, not once per object.
        var checkedExpressions: [String: [ObjectIdentifier: Predicates.NSExpression]] = [:]

        init(sourceContext: NSManagedObjectContext, destinationContext: NSManagedObjectContext, sourceStore: String,
             destinationStore: String, savesInBatches: Bool) {
            self.sourceContext = sourceContext
            self.destinationContext = destinationContext
            self.sourceStore = .intern(sourceStore)
            self.destinationStore = .intern(destinationStore)
            self.savesInBatches = savesInBatches
        }

        /// A fault for the source (destination) object a key names.
        func sourceObject(_ key: UInt64) -> NSManagedObject {
            let (entity, primaryKey) = associations.unpack(key)
            return sourceContext.object(with: NSManagedObjectID(entity: entity, store: sourceStore, primaryKey: primaryKey))
        }

        func destinationObject(_ key: UInt64) -> NSManagedObject {
            let (entity, primaryKey) = associations.unpack(key)
            return destinationContext.object(with: NSManagedObjectID(entity: entity, store: destinationStore, primaryKey: primaryKey))
        }

        /// Moves the batch's associations into the table once its destination instances have permanent IDs.
        func recordPendingAssociations() throws {
            for (mapping, source, destination) in pending where !destination.objectID.isTemporaryID {
                try associations.append(mapping: mapping, source: associations.key(of: source.objectID),
                                        destination: associations.key(of: destination.objectID))
            }
            pending.removeAll(keepingCapacity: true)
            pendingBySource.removeAll()
            pendingByDestination.removeAll()
        }
    }

    /// Whether `mapping` can run as SQL on the SQLite store: no policy (nor a custom mapping, which runs the default
    /// policy when it names none), and every value expression absent or a `$source.<key>` copy.
    public static func runsAsSQL(_ mapping: NSMappingModel) -> Bool {
        mapping.entityMappings.allSatisfy { entityMapping in
            (entityMapping.entityMigrationPolicyClassName ?? "").isEmpty && entityMapping.mappingType != .customEntityMappingType
                && ((entityMapping.attributeMappings ?? []) + (entityMapping.relationshipMappings ?? [])).allSatisfy {
                    $0.valueExpression == nil || $0.sourcePropertyName != nil
                }
        }
    }

    // MARK: Apple's manager API

    /// The context on the source store during a migration (nil otherwise). It is reset after every batch: keep
    /// object IDs, not objects, from one call of a policy to the next.
    public var sourceContext: NSManagedObjectContext? { objectMigration?.sourceContext }
    /// The context on the new destination store during a migration (nil otherwise); saved and reset after every
    /// batch when the destination is a SQLite store.
    public var destinationContext: NSManagedObjectContext? { objectMigration?.destinationContext }
    /// The entity mapping being processed.
    public var currentEntityMapping: NSEntityMapping? { objectMigration?.currentEntityMapping }

    /// The request a generated `sourceExpression` runs: the instances of `entityName` itself (not its subentities,
    /// which have mappings of their own) that match `predicateString`.
    public func fetchRequestForSourceEntityNamed(_ entityName: String, predicateString: String) throws -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.includesSubentities = false
        if predicateString != "TRUEPREDICATE" {
            do {
                request.predicate = try NSPredicate(parsing: predicateString)
            } catch {
                throw CoreDataError(.migration, "source predicate \(predicateString) of \(entityName): \(error)", underlyingError: error)
            }
        }
        return request
    }

    // MARK: The default steps

    /// `NSEntityMigrationPolicy.createDestinationInstances(forSource:in:manager:)` as Apple's default does it.
    func createDefaultDestinationInstance(forSource source: NSManagedObject, in mapping: NSEntityMapping,
                                          policy: NSEntityMigrationPolicy) throws {
        guard let migration = objectMigration, let entity = destinationEntity(for: mapping) else {
            throw CoreDataError(.migration, "entity mapping \(mapping.name) has no destination entity in the destination model")
        }
        let destination = NSManagedObject(entity: entity, insertInto: migration.destinationContext)
        for propertyMapping in mapping.attributeMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression else { continue }
            let value = try evaluate(expression, of: propertyMapping, in: mapping, source: source, destination: destination, policy: policy)
            do {
                try destination.setValidatedValue(value, forKey: name)
            } catch {
                throw CoreDataError(.migration, "\(mapping.name).\(name) = \(expression.predicateFormat) gave \(String(describing: value)): \(error)",
                                    underlyingError: error)
            }
        }
        associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
    }

    /// `NSEntityMigrationPolicy.createRelationships(forDestination:in:manager:)` as Apple's default does it.
    func createDefaultRelationships(forDestination destination: NSManagedObject, in mapping: NSEntityMapping,
                                    policy: NSEntityMigrationPolicy) throws {
        guard let migration = objectMigration else { return }
        let sources = sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination])
        guard let source = sources.first else { return }
        for propertyMapping in mapping.relationshipMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression,
                  let relationship = destination.entity.relationshipsByName[name] else { continue }
            let value = try evaluate(expression, of: propertyMapping, in: mapping, source: source, destination: destination, policy: policy)
            let objects = try destinationObjects(for: value, migration: migration, relationship: relationship, mapping: mapping)
            if relationship.isToMany {
                let value: Any = relationship.isOrdered ? objects as Any : Set(objects) as Any
                try destination.setValidatedValue(value, forKey: name)
            } else {
                guard objects.count <= 1 else {
                    throw CoreDataError(.migration, "\(mapping.name).\(name) = \(expression.predicateFormat) gave \(objects.count) objects for a to-one relationship")
                }
                try destination.setValidatedValue(objects.first, forKey: name)
            }
        }
    }

    /// The destination objects a relationship expression's value stands for: destination objects as they are, source
    /// objects through the mapping that made their destination instance.
    private func destinationObjects(for value: Any?, migration: ObjectMigration, relationship: NSRelationshipDescription,
                                    mapping: NSEntityMapping) throws -> [NSManagedObject] {
        guard let value else { return [] }
        let elements: [Any]
        if let object = value as? NSManagedObject {
            elements = [object]
        } else if let many = value as? [Any] {
            elements = many
        } else {
            throw CoreDataError(.migration, "\(mapping.name).\(relationship.name): the value expression gave \(type(of: value)), not objects")
        }
        var result: [NSManagedObject] = []
        for element in elements {
            if element is NSNull { continue }
            guard let object = element as? NSManagedObject else {
                throw CoreDataError(.migration, "\(mapping.name).\(relationship.name): the value expression gave \(type(of: element)), not an object")
            }
            if object.managedObjectContext === migration.destinationContext {
                result.append(object)
                continue
            }
            // A source object: its destination instance under any mapping of its entity.
            if let key = migration.associations.existingKey(of: object.objectID) {
                let saved = migration.associations.destinationsUnderAnyMapping(of: key)
                if !saved.isEmpty {
                    result.append(contentsOf: saved.map(migration.destinationObject))
                    continue
                }
            }
            let pending = migration.pendingBySource.keys.sorted().lazy.compactMap { migration.pendingBySource[$0]?[object.objectID] }.first
            result.append(contentsOf: pending ?? [])
        }
        return result
    }

    /// The value of `expression` with Apple's variables bound.
    private func evaluate(_ expression: Predicates.NSExpression, of propertyMapping: NSPropertyMapping, in mapping: NSEntityMapping,
                          source: NSManagedObject, destination: NSManagedObject, policy: NSEntityMigrationPolicy) throws -> Any? {
        try check(expression, of: propertyMapping, in: mapping, source: source.entity)
        let variables: [String: Any] = [
            NSMigrationManagerKey: self, NSMigrationSourceObjectKey: source, NSMigrationDestinationObjectKey: destination,
            NSMigrationEntityMappingKey: mapping, NSMigrationPropertyMappingKey: propertyMapping, NSMigrationEntityPolicyKey: policy,
        ]
        do {
            return try PredicateEvaluator(evaluatedObject: source, variables: variables).value(of: expression.expressionNode).anyValue
        } catch {
            throw CoreDataError(.migration, "\(mapping.name).\(propertyMapping.name ?? "?") = \(expression.predicateFormat): \(error.reason)",
                                underlyingError: error)
        }
    }

    /// Checks every `$source.<key>` of `expression` against `entity` (a key it lacks would stop the program, as Apple's
    /// KVC raises; this says which instead); once per expression and entity in the running migration.
    private func check(_ expression: Predicates.NSExpression, of propertyMapping: NSPropertyMapping, in mapping: NSEntityMapping,
                       source entity: NSEntityDescription) throws {
        if objectMigration?.checkedExpressions[entity.entityName]?[ObjectIdentifier(expression)] === expression { return }
        for key in Self.sourceKeys(in: expression.expressionNode) where !key.hasPrefix("@") && entity.propertiesByName[key] == nil {
            throw CoreDataError(.migration, "\(mapping.name).\(propertyMapping.name ?? "?") = \(expression.predicateFormat): the source "
                                    + "entity \(entity.entityName) has no property \(key)")
        }
        objectMigration?.checkedExpressions[entity.entityName, default: [:]][ObjectIdentifier(expression)] = expression
    }

    /// The first key of every `$source.<key…>` in `node`.
    private static func sourceKeys(in node: ExpressionNode) -> [String] {
        switch node {
        case .keyPathOnExpression(.variable(NSMigrationSourceObjectKey), let path):
            return [String(path.prefix { $0 != "." })]
        case .keyPathOnExpression(let base, _): return sourceKeys(in: base)
        case .function(_, let arguments), .aggregate(let arguments): return arguments.flatMap(sourceKeys(in:))
        case .customFunction(let receiver, _, let arguments): return ([receiver] + arguments).flatMap(sourceKeys(in:))
        case .index(let collection, .at(let position)): return sourceKeys(in: collection) + sourceKeys(in: position)
        case .index(let collection, _): return sourceKeys(in: collection)
        case .setOperation(let left, _, let right): return sourceKeys(in: left) + sourceKeys(in: right)
        case .subquery(let collection, _, _): return sourceKeys(in: collection)
        case .conditional(_, let whenTrue, let whenFalse): return sourceKeys(in: whenTrue) + sourceKeys(in: whenFalse)
        case .fetch(let request, let context, _): return sourceKeys(in: request) + sourceKeys(in: context)
        case .constant, .evaluatedObject, .variable, .keyPath, .anyKey: return []
        }
    }
}

extension NSMigrationManager: ExpressionFunctionReceiver {
    /// The manager's methods that value and source expressions call: `destinationInstancesForEntityMappingNamed:
    /// sourceInstances:`, `sourceInstancesForEntityMappingNamed:destinationInstances:` and
    /// `fetchRequestForSourceEntityNamed:predicateString:`.
    public func evaluateFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
        func objects(_ value: Any?) -> [NSManagedObject]? {
            guard let value, !(value is NSNull) else { return nil }
            if let object = value as? NSManagedObject { return [object] }
            return (value as? [Any])?.compactMap { $0 as? NSManagedObject }
        }
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            guard arguments.count == 2, let name = arguments[0] as? String else { break }
            // A nil source (a nil to-one) has no destination instances.
            guard let sources = objects(arguments[1]) else { return [Any]() }
            return destinationInstances(forEntityMappingName: name, sourceInstances: sources) as [Any]
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            guard arguments.count == 2, let name = arguments[0] as? String else { break }
            guard let destinations = objects(arguments[1]) else { return [Any]() }
            return sourceInstances(forEntityMappingName: name, destinationInstances: destinations) as [Any]
        case "fetchRequestForSourceEntityNamed:predicateString:":
            guard arguments.count == 2, let entity = arguments[0] as? String, let predicate = arguments[1] as? String else { break }
            return try fetchRequestForSourceEntityNamed(entity, predicateString: predicate)
        default:
            throw CoreDataError(.migration, "NSMigrationManager has no method \(selector) for an expression")
        }
        throw CoreDataError(.migration, "NSMigrationManager.\(selector): wrong arguments \(arguments)")
    }
}

extension NSManagedObject {
    /// `setValue(_:forKey:)` for a value a migration computed: a key the entity lacks or a value of the wrong type
    /// throws instead of trapping.
    fileprivate func setValidatedValue(_ value: Any?, forKey key: String) throws {
        guard let property = entity.propertiesByName[key] else {
            throw CoreDataError(.migration, "\(entity.entityName) has no property \(key)")
        }
        if let attribute = property as? NSAttributeDescription, !attribute.isTransient, attribute.attributeType != .transformableAttributeType {
            do {
                _ = try StoredValue(assigning: value, to: attribute)
            } catch {
                throw CoreDataError(.migration, "\(entity.entityName).\(key): \(error)", underlyingError: error)
            }
        }
        setValue(value, forKey: key)
    }
}

extension NSMigrationManager: KeyValueCoding {
    /// The manager's properties by name, so that expressions read `$manager.sourceContext` (the context a source
    /// expression's `FETCH` runs in), `$manager.destinationContext` and the like, as Apple's key-value coding does.
    public func value(forKey key: String) -> Any? {
        switch key {
        case "sourceContext": return sourceContext
        case "destinationContext": return destinationContext
        case "currentEntityMapping": return currentEntityMapping
        case "mappingModel": return mappingModel
        case "sourceModel": return sourceModel
        case "destinationModel": return destinationModel
        case "userInfo": return userInfo
        case "migrationProgress": return migrationProgress
        case "usesStoreSpecificMigrationManager": return usesStoreSpecificMigrationManager
        default: return nil
        }
    }
}
