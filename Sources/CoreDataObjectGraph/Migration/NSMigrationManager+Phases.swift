import CoreDataModel
import Foundation
import Predicates

extension NSMigrationManager {
    /// Migrates the store at `sourceURL` into a new store at `destinationURL` object by object, as Apple's manager
    /// does for a mapping model with custom expressions or policies. The source is opened read-only, so it is never
    /// changed. The work goes in batches of `objectBatchSize`: into a SQLite destination each batch is saved (without
    /// validation: relationships come in phase 2) and both contexts are reset, so memory stays flat; the third phase
    /// then validates every destination object, batch by batch. A failure leaves a partial destination, which the
    /// caller removes; the destination only replaces anything once the whole migration has succeeded.
    func migrateObjects(from sourceURL: URL, sourceType: String, sourceOptions: [String: Any]?, mapping: NSMappingModel,
                        to destinationURL: URL, destinationType: String, destinationOptions: [String: Any]?) throws {
        let batchSize = max(1, objectBatchSize)
        // Room for a batch and the objects its relationships reach, not the default's 50,000 rows.
        let cacheRows = max(256, 4 * batchSize)
        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: sourceModel, rowCacheCapacity: cacheRows)
        var readOnly = sourceOptions ?? [:]
        readOnly[NSReadOnlyPersistentStoreOption] = true
        let sourceStore = try sourceCoordinator.addPersistentStore(ofType: sourceType, configurationName: nil, at: sourceURL, options: readOnly)
        defer { try? sourceCoordinator.remove(sourceStore) }
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: destinationModel, rowCacheCapacity: cacheRows)
        let destinationStore = try destinationCoordinator.addPersistentStore(
            ofType: destinationType, configurationName: nil, at: destinationURL, options: destinationOptions)
        defer { try? destinationCoordinator.remove(destinationStore) }

        let sourceContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        sourceContext.persistentStoreCoordinator = sourceCoordinator
        let destinationContext = NSManagedObjectContext(sharingQueueOf: sourceContext)
        destinationContext.persistentStoreCoordinator = destinationCoordinator
        let savesInBatches = destinationType == NSSQLiteStoreType
        let migration = ObjectMigration(sourceContext: sourceContext, destinationContext: destinationContext,
                                        sourceStore: sourceStore.storeIdentifier, destinationStore: destinationStore.storeIdentifier,
                                        savesInBatches: savesInBatches)
        objectMigration = migration
        defer { objectMigration = nil }
        try sourceContext.performAndWait {
            destinationContext.skipsValidationOnSave = savesInBatches
            try runPhases(of: mapping, migration: migration, batchSize: batchSize)
            destinationContext.skipsValidationOnSave = false
            try destinationContext.save()
            setProgress(1)
        }
    }

    /// Apple's three phases over the entity mappings, in order: create, relate, validate; each in batches.
    private func runPhases(of mapping: NSMappingModel, migration: ObjectMigration, batchSize: Int) throws {
        let mappings = mapping.entityMappings
        // Associations are kept by mapping name: two mappings of one name would read each other's instances.
        var names = Set<String>()
        for entityMapping in mappings where !names.insert(entityMapping.name).inserted {
            throw CoreDataError(.migration, "the mapping model has two entity mappings named \"\(entityMapping.name)\"; "
                                    + "each needs a name of its own (destinationInstances(forEntityMappingName:) finds instances by it)")
        }
        var policies: [NSEntityMigrationPolicy] = []
        for entityMapping in mappings { policies.append(try policy(for: entityMapping)) }
        // Progress: a third per phase, each advancing with the objects it has gone through.
        var selections: [SourceSelection?] = []
        var total = 0
        for entityMapping in mappings {
            let selection = entityMapping.mappingType == .addEntityMappingType || entityMapping.mappingType == .removeEntityMappingType
                ? nil : try sourceSelection(of: entityMapping, migration: migration)
            selections.append(selection)
            switch selection {
            case .request(let request)?: total += try migration.sourceContext.count(for: request)
            case .objects(let identifiers)?: total += identifiers.count
            case nil: break
            }
        }
        var done = 0
        func advance(phase: Int, by count: Int, of phaseTotal: Int) throws {
            done += count
            let within = phaseTotal == 0 ? 1 : min(1, Float(done) / Float(phaseTotal))
            setProgress(min((Float(phase) + within) / 3, 0.99))
            try checkCancellation()
        }

        // Phase 1: the destination instances, source batch by source batch.
        for ((entityMapping, policy), selection) in zip(zip(mappings, policies), selections) {
            migration.currentEntityMapping = entityMapping
            try policy.begin(entityMapping, with: self)
            func create(_ objects: [NSManagedObject]) throws {
                for source in objects {
                    try policy.createDestinationInstances(forSource: source, in: entityMapping, manager: self)
                    try checkCancellation()
                }
                try endBatch(migration)
                try advance(phase: 0, by: objects.count, of: total)
            }
            switch selection {
            case .request(let request)?:
                request.fetchBatchSize = batchSize
                request.returnsObjectsAsFaults = false
                let sources = try migration.sourceContext.fetchBatched(request)
                sources.maximumResidentBatches = 1
                var batch = 0
                while true {
                    let objects = try sources.objects(inBatch: batch)
                    try create(objects)
                    if objects.count < batchSize { break }
                    batch += 1
                }
            case .objects(let identifiers)?:
                // Kept as IDs: each batch ends by resetting the source context.
                var start = 0
                while start < identifiers.count {
                    let objects = identifiers[start..<min(identifiers.count, start + batchSize)].map(migration.sourceContext.object(with:))
                    try migration.sourceContext.fulfillFaults(for: objects)
                    try create(objects)
                    start += batchSize
                }
            case nil:
                break
            }
            try policy.endInstanceCreation(forMapping: entityMapping, manager: self)
            try endBatch(migration)
        }

        // Phase 2: the relationships, destination batch by destination batch (faulted back in from their keys).
        done = 0
        let associated = mappings.reduce(0) { $0 + migration.associations.count(mapping: $1.name) }
        for (entityMapping, policy) in zip(mappings, policies) {
            migration.currentEntityMapping = entityMapping
            let rows = migration.associations.count(mapping: entityMapping.name)
            // The default policy without relationship mappings has nothing to do per object.
            let relates = type(of: policy) != NSEntityMigrationPolicy.self || !(entityMapping.relationshipMappings ?? []).isEmpty
            var start = 0
            while relates, start < rows {
                let end = min(rows, start + batchSize)
                var destinations: [NSManagedObject] = [], sources: [NSManagedObject] = []
                destinations.reserveCapacity(end - start)
                for index in start..<end {
                    let row = migration.associations.row(index, mapping: entityMapping.name)
                    destinations.append(migration.destinationObject(row.destination))
                    sources.append(migration.sourceObject(row.source))
                }
                try migration.destinationContext.fulfillFaults(for: destinations)
                try migration.sourceContext.fulfillFaults(for: sources)
                for destination in destinations {
                    try policy.createRelationships(forDestination: destination, in: entityMapping, manager: self)
                    try checkCancellation()
                }
                try endBatch(migration)
                try advance(phase: 1, by: end - start, of: associated)
                start = end
            }
            if !relates { try advance(phase: 1, by: rows, of: associated) }
            try policy.endRelationshipCreation(forMapping: entityMapping, manager: self)
            try endBatch(migration)
        }

        // Phase 3: validation (a SQLite destination's batches were saved unvalidated), then the policies' own.
        done = 0
        if migration.savesInBatches {
            try validateDestination(migration, batchSize: batchSize) { validated in
                setProgress(min((2 + Float(validated) / Float(max(1, associated))) / 3, 0.99))
            }
        }
        for (entityMapping, policy) in zip(mappings, policies) {
            migration.currentEntityMapping = entityMapping
            try policy.performCustomValidation(forMapping: entityMapping, manager: self)
            try policy.end(entityMapping, manager: self)
            try advance(phase: 2, by: 1, of: mappings.count)
        }
        migration.currentEntityMapping = nil
    }

    /// Ends a batch: its destination instances get permanent IDs (by saving the batch and resetting both contexts,
    /// or by reserving their keys when the destination is saved once at the end), and their associations move into
    /// the table.
    private func endBatch(_ migration: ObjectMigration) throws {
        if migration.savesInBatches {
            try migration.destinationContext.save()
            try migration.recordPendingAssociations()
            migration.destinationContext.reset()
            migration.sourceContext.reset()
        } else {
            try migration.destinationContext.obtainPermanentIDs(for: migration.pending.map(\.destination))
            try migration.recordPendingAssociations()
        }
    }

    /// Validates every object of the destination store, a batch at a time, as the one save at the end of Apple's
    /// migration would: the first failures are reported together.
    private func validateDestination(_ migration: ObjectMigration, batchSize: Int, progress: (Int) -> Void) throws {
        let context = migration.destinationContext
        var errors: [CoreDataError] = []
        var validated = 0
        for entity in destinationModel.entities where !entity.isAbstract {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
            request.includesSubentities = false
            request.fetchBatchSize = batchSize
            request.returnsObjectsAsFaults = false
            let objects = try context.fetchBatched(request)
            objects.maximumResidentBatches = 1
            var batch = 0
            while true {
                let loaded = try objects.objects(inBatch: batch)
                for object in loaded where errors.count < 10 {
                    do {
                        try object.validateForInsert()
                    } catch let error as CoreDataError {
                        errors += error.code == .validationMultipleErrors ? error.detailedErrors : [error]
                    }
                }
                context.reset()
                validated += loaded.count
                progress(validated)
                try checkCancellation()
                if loaded.count < batchSize { break }
                batch += 1
            }
        }
        if !errors.isEmpty {
            throw CoreDataError(.migration, "the migrated objects do not validate against the destination model: "
                                    + errors.prefix(10).map(\.description).joined(separator: "; "),
                                underlyingError: errors.count == 1 ? errors[0] : NSManagedObject.multipleErrors(errors))
        }
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

    /// How the source instances of an entity mapping are found: by a request the migration runs in batches, or as the
    /// collection a source expression gave (kept as object IDs).
    private enum SourceSelection {
        case request(NSFetchRequest<NSManagedObject>)
        case objects([NSManagedObjectID])
    }

    /// The source instances of `entityMapping`: its `sourceExpression`'s, else every instance of its source entity (not
    /// of its subentities); nil for a mapping without a source. A `FETCH(…, $manager.sourceContext, NO)` (what Xcode
    /// generates) becomes its request, run in batches; any other source expression is evaluated, with `$manager` bound,
    /// to the collection of source objects it gives, as Apple's documentation allows.
    private func sourceSelection(of entityMapping: NSEntityMapping, migration: ObjectMigration) throws -> SourceSelection? {
        guard let expression = entityMapping.sourceExpression else {
            guard let entityName = entityMapping.sourceEntityName else { return nil }
            return .request(try fetchRequestForSourceEntityNamed(entityName, predicateString: "TRUEPREDICATE"))
        }
        func failure(_ reason: String, _ error: (any Error)? = nil) -> CoreDataError {
            CoreDataError(.migration, "entity mapping \(entityMapping.name): source expression \(expression.predicateFormat) \(reason)",
                          underlyingError: error)
        }
        let evaluator = PredicateEvaluator(evaluatedObject: nil, variables: [NSMigrationManagerKey: self])
        if case .fetch(let requestExpression, let context, countOnly: false) = expression.expressionNode,
           case .keyPathOnExpression(.variable(NSMigrationManagerKey), "sourceContext") = context {
            let value: ConstantValue
            do {
                value = try evaluator.value(of: requestExpression)
            } catch {
                throw failure("cannot be evaluated: \(error)", error)
            }
            guard let request = value.anyValue as? NSFetchRequest<NSManagedObject> else {
                throw failure("gives \(value.predicateFormat), not a fetch request")
            }
            return .request(request)
        }
        let value: ConstantValue
        do {
            value = try evaluator.value(of: expression.expressionNode)
        } catch {
            throw failure("cannot be evaluated: \(error)", error)
        }
        let elements: [Any]
        switch value.anyValue {
        case let object as NSManagedObject: elements = [object]
        case let many as [Any]: elements = many
        default: throw failure("gives \(value.predicateFormat), not a collection of source objects")
        }
        return .objects(try elements.map { element in
            guard let object = element as? NSManagedObject, object.managedObjectContext === migration.sourceContext else {
                throw failure("gives \(type(of: element)), not an object of the migration's source context")
            }
            return object.objectID
        })
    }
}
