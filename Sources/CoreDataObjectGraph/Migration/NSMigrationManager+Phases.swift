import CoreDataModel
import Foundation
import Predicates

extension NSMigrationManager {
    /// Migrates the store at `sourceURL` into a new store at `destinationURL` object by object, as Apple's manager
    /// does for a mapping model with custom expressions or policies. The source is opened read-only; the destination
    /// is saved once, after the three phases and validation, so a failure leaves no partial store behind (the caller
    /// removes the new file).
    func migrateObjects(from sourceURL: URL, sourceType: String, sourceOptions: [String: Any]?, mapping: NSMappingModel,
                        to destinationURL: URL, destinationType: String, destinationOptions: [String: Any]?) throws {
        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: sourceModel)
        var readOnly = sourceOptions ?? [:]
        readOnly[NSReadOnlyPersistentStoreOption] = true
        let sourceStore = try sourceCoordinator.addPersistentStore(ofType: sourceType, configurationName: nil, at: sourceURL, options: readOnly)
        defer { try? sourceCoordinator.remove(sourceStore) }
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: destinationModel)
        let destinationStore = try destinationCoordinator.addPersistentStore(
            ofType: destinationType, configurationName: nil, at: destinationURL, options: destinationOptions)
        defer { try? destinationCoordinator.remove(destinationStore) }

        let sourceContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        sourceContext.persistentStoreCoordinator = sourceCoordinator
        let destinationContext = NSManagedObjectContext(sharingQueueOf: sourceContext)
        destinationContext.persistentStoreCoordinator = destinationCoordinator
        let migration = ObjectMigration(sourceContext: sourceContext, destinationContext: destinationContext)
        objectMigration = migration
        defer { objectMigration = nil }
        try sourceContext.performAndWait {
            try runPhases(of: mapping, migration: migration)
            try destinationContext.save()
            setProgress(1)
        }
    }

    /// Apple's three phases over the entity mappings, in order: create, relate, validate.
    private func runPhases(of mapping: NSMappingModel, migration: ObjectMigration) throws {
        let mappings = mapping.entityMappings
        var policies: [NSEntityMigrationPolicy] = []
        for entityMapping in mappings { policies.append(try policy(for: entityMapping)) }
        let steps = Float(max(1, mappings.count * 3))
        var done: Float = 0
        func advance() throws {
            done += 1
            setProgress(min(done / steps, 0.99))
            try checkCancellation()
        }

        for (entityMapping, policy) in zip(mappings, policies) {
            migration.currentEntityMapping = entityMapping
            try policy.begin(entityMapping, with: self)
            if entityMapping.mappingType != .addEntityMappingType, entityMapping.mappingType != .removeEntityMappingType {
                for source in try sourceInstances(of: entityMapping, in: migration.sourceContext) {
                    try policy.createDestinationInstances(forSource: source, in: entityMapping, manager: self)
                    try checkCancellation()
                }
            }
            try policy.endInstanceCreation(forMapping: entityMapping, manager: self)
            try advance()
        }
        for (entityMapping, policy) in zip(mappings, policies) {
            migration.currentEntityMapping = entityMapping
            for destination in migration.destinations[entityMapping.name] ?? [] {
                try policy.createRelationships(forDestination: destination, in: entityMapping, manager: self)
                try checkCancellation()
            }
            try policy.endRelationshipCreation(forMapping: entityMapping, manager: self)
            try advance()
        }
        for (entityMapping, policy) in zip(mappings, policies) {
            migration.currentEntityMapping = entityMapping
            try policy.performCustomValidation(forMapping: entityMapping, manager: self)
            try policy.end(entityMapping, manager: self)
            try advance()
        }
        migration.currentEntityMapping = nil
    }

    /// The policy object of `entityMapping`: the class it names, or the default policy.
    private func policy(for entityMapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        guard let name = entityMapping.entityMigrationPolicyClassName, !name.isEmpty else { return NSEntityMigrationPolicy() }
        guard let policyClass = NSEntityMigrationPolicy.policyClass(named: name) else {
            throw CoreDataError(.migration, "entity mapping \(entityMapping.name) names the migration policy \(name), which is not a "
                                    + "known NSEntityMigrationPolicy subclass; register it with NSEntityMigrationPolicy.register(_:forClassName:)")
        }
        return policyClass.init()
    }

    /// The source objects of `entityMapping`: what its `sourceExpression` fetches, else every instance of its
    /// source entity (not of its subentities).
    private func sourceInstances(of entityMapping: NSEntityMapping, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request: NSFetchRequest<NSManagedObject>
        if let expression = entityMapping.sourceExpression {
            request = try sourceRequest(expression, of: entityMapping)
        } else if let entityName = entityMapping.sourceEntityName {
            request = try fetchRequestForSourceEntityNamed(entityName, predicateString: "TRUEPREDICATE")
        } else {
            return []
        }
        return try context.fetch(request)
    }

    /// The request of a generated source expression, `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:
    /// predicateString:", …), $manager.sourceContext, NO)`: the `FUNCTION` part is evaluated with `$manager` bound.
    private func sourceRequest(_ expression: String, of entityMapping: NSEntityMapping) throws -> NSFetchRequest<NSManagedObject> {
        let trimmed = expression.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("FETCH("), let contextArgument = trimmed.range(of: ", $manager.sourceContext", options: .backwards) else {
            throw CoreDataError(.migration, "entity mapping \(entityMapping.name): source expression \(expression) is not a "
                                    + "FETCH(…, $manager.sourceContext, NO) of the source context")
        }
        let inner = String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 6)..<contextArgument.lowerBound])
        do {
            let parsed = try Predicates.NSExpression(parsing: inner)
            let value = try PredicateEvaluator(evaluatedObject: nil, variables: [NSMigrationManagerKey: self]).value(of: parsed.expressionNode)
            if let request = value.anyValue as? NSFetchRequest<NSManagedObject> { return request }
        } catch {
            throw CoreDataError(.migration, "entity mapping \(entityMapping.name): source expression \(expression): \(error)", underlyingError: error)
        }
        throw CoreDataError(.migration, "entity mapping \(entityMapping.name): source expression \(expression) gives no fetch request")
    }
}
