import Foundation
import OpenCoreData
import Testing

// A compile probe of Apple's public Core Data API, one section per class (the model layer's are in
// AppleAPISurfaceTests+Model.swift): each line uses one public method, property, constant or type with Apple's Swift
// spelling (labels, optionality, `throws`, result type) as code written for Apple's platforms uses it. The functions are never called; the file compiles only if the surface matches.
// Left out on purpose (out of this issue's scope, or not possible without the Objective-C runtime; see
// docs/DEVIATIONS.md): batch requests, persistent history, query generations, CloudKit, NSIncrementalStore, ubiquity,
// Spotlight, diffable-data-source snapshots, `validateValue(_:forKey:)`'s `AutoreleasingUnsafeMutablePointer` form.

/// Reads a value back unchanged, so that `x.p = keep(x.p)` checks that `p` is settable with its own type.
func keep<T>(_ value: T) -> T { value }

// MARK: NSManagedObjectContext

private func probeContext(_ context: NSManagedObjectContext, _ object: NSManagedObject, _ id: NSManagedObjectID,
                          _ store: NSPersistentStore, _ property: NSPropertyDescription?) async throws {
    let made = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    let type: NSManagedObjectContextConcurrencyType = made.concurrencyType
    _ = type
    let coordinator: NSPersistentStoreCoordinator? = context.persistentStoreCoordinator
    context.persistentStoreCoordinator = coordinator
    let parent: NSManagedObjectContext? = context.parent
    made.parent = parent
    let name: String? = context.name
    context.name = name
    let undo: UndoManager? = context.undoManager
    context.undoManager = undo
    let hasChanges: Bool = context.hasChanges
    _ = hasChanges
    let userInfo: NSMutableDictionary = context.userInfo
    _ = userInfo
    await context.perform { }  // in an async function Swift picks the async overload, on Apple's platforms too
    context.performAndWait { }
    let value: Int = try context.performAndWait { () throws -> Int in 1 }
    _ = value
    let later: Int = try await context.perform { () throws -> Int in 2 }
    _ = later
    let scheduled: Int = await context.perform(schedule: .enqueued) { 3 }
    _ = scheduled
    let registered: NSManagedObject? = context.registeredObject(for: id)
    _ = registered
    let faulted: NSManagedObject = context.object(with: id)
    _ = faulted
    let existing: NSManagedObject = try context.existingObject(with: id)
    _ = existing
    // DEVIATION (NSFetchRequestResult does not conform to itself without @objc; docs/DEVIATIONS.md):
    // let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
    // let anyResults: [Any] = try context.fetch(request)
    // _ = anyResults
    let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
    let typed: [NSManagedObject] = try context.fetch(request)
    _ = typed
    let count: Int = try context.count(for: request)
    _ = count
    let result: NSPersistentStoreResult = try context.execute(request)
    _ = result
    context.insert(object)
    context.delete(object)
    context.refresh(object, mergeChanges: true)
    context.detectConflicts(for: object)
    context.processPendingChanges()
    context.assign(object, to: store)
    let inserted: Set<NSManagedObject> = context.insertedObjects
    let updated: Set<NSManagedObject> = context.updatedObjects
    let deleted: Set<NSManagedObject> = context.deletedObjects
    let all: Set<NSManagedObject> = context.registeredObjects
    _ = (inserted, updated, deleted, all)
    context.undo()
    context.redo()
    context.reset()
    context.rollback()
    try context.save()
    context.refreshAllObjects()
    let propagates: Bool = context.propagatesDeletesAtEndOfEvent
    context.propagatesDeletesAtEndOfEvent = propagates
    let retains: Bool = context.retainsRegisteredObjects
    context.retainsRegisteredObjects = retains
    let deletesInaccessible: Bool = context.shouldDeleteInaccessibleFaults
    context.shouldDeleteInaccessibleFaults = deletesInaccessible
    let handles: Bool = context.shouldHandleInaccessibleFault(object, for: id, triggeredByProperty: property)
    _ = handles
    let staleness: TimeInterval = context.stalenessInterval
    context.stalenessInterval = staleness
    // DEVIATION (mergePolicy is an NSMergePolicy, not Any: assigning the shared policies and NSMergeByPropertyObjectTrumpMergePolicy compiles):
    // let policy: Any = context.mergePolicy
    // context.mergePolicy = policy
    context.mergePolicy = keep(context.mergePolicy)
    context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
    context.mergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
    try context.obtainPermanentIDs(for: [object])
    context.mergeChanges(fromContextDidSave: Notification(name: .NSManagedObjectContextDidSave))
    NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectsKey: [id]], into: [context])
    let merges: Bool = context.automaticallyMergesChangesFromParent
    context.automaticallyMergesChangesFromParent = merges
    let author: String? = context.transactionAuthor
    context.transactionAuthor = author
    context.lock()
    context.unlock()
    let locked: Bool = context.tryLock()
    _ = locked
}

private func probeContextNotifications() {
    let names: [Notification.Name] = [
        .NSManagedObjectContextObjectsDidChange, .NSManagedObjectContextDidSave, .NSManagedObjectContextWillSave,
        NSManagedObjectContext.willSaveObjectsNotification, NSManagedObjectContext.didSaveObjectsNotification,
        NSManagedObjectContext.didChangeObjectsNotification, NSManagedObjectContext.didSaveObjectIDsNotification,
        NSManagedObjectContext.didMergeChangesObjectIDsNotification,
        .NSPersistentStoreCoordinatorStoresWillChange, .NSPersistentStoreCoordinatorStoresDidChange,
        .NSPersistentStoreCoordinatorWillRemoveStore,
    ]
    let keys: [String] = [
        NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey, NSRefreshedObjectsKey, NSInvalidatedObjectsKey,
        NSInvalidatedAllObjectsKey,
        NSAddedPersistentStoresKey, NSRemovedPersistentStoresKey, NSUUIDChangedPersistentStoresKey,
        NSManagedObjectContext.NotificationKey.insertedObjects.rawValue,
        NSManagedObjectContext.NotificationKey.updatedObjects.rawValue,
        NSManagedObjectContext.NotificationKey.deletedObjects.rawValue,
        NSManagedObjectContext.NotificationKey.refreshedObjects.rawValue,
        NSManagedObjectContext.NotificationKey.invalidatedObjects.rawValue,
        NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue,
        NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue,
        NSManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue,
        NSManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue,
        NSManagedObjectContext.NotificationKey.refreshedObjectIDs.rawValue,
        NSManagedObjectContext.NotificationKey.invalidatedObjectIDs.rawValue,
    ]
    _ = (names, keys)
}

// MARK: NSManagedObject

private func probeObject(_ object: NSManagedObject, _ entity: NSEntityDescription, _ context: NSManagedObjectContext) throws {
    let made = NSManagedObject(entity: entity, insertInto: context)
    let plain = NSManagedObject(context: context)
    _ = (made, plain)
    let described: NSEntityDescription = NSManagedObject.entity()
    // DEVIATION (NSFetchRequestResult; a subclass's fetchRequest() is typed, NSFetchRequest<Subclass>):
    // let request: NSFetchRequest<NSFetchRequestResult> = NSManagedObject.fetchRequest()
    _ = described
    let ignores: Bool = NSManagedObject.contextShouldIgnoreUnmodeledPropertyChanges
    _ = ignores
    let owner: NSManagedObjectContext? = object.managedObjectContext
    let own: NSEntityDescription = object.entity
    let id: NSManagedObjectID = object.objectID
    _ = (owner, own, id)
    let flags: [Bool] = [object.isInserted, object.isUpdated, object.isDeleted, object.hasChanges,
                         object.hasPersistentChangedValues, object.isFault]
    _ = flags
    let unfetched: Bool = object.hasFault(forRelationshipNamed: "items")
    let ids: [NSManagedObjectID] = object.objectIDs(forRelationshipNamed: "items")
    let state: Int = object.faultingState
    _ = (unfetched, ids, state)
    object.willAccessValue(forKey: "name")
    object.didAccessValue(forKey: "name")
    object.willChangeValue(forKey: "name")
    object.didChangeValue(forKey: "name")
    object.awakeFromFetch()
    object.awakeFromInsert()
    object.awake(fromSnapshotEvents: [.refresh, .undoDeletion, .rollback])
    object.prepareForDeletion()
    object.willSave()
    object.didSave()
    object.willTurnIntoFault()
    object.didTurnIntoFault()
    let value: Any? = object.value(forKey: "name")
    object.setValue(value, forKey: "name")
    let primitive: Any? = object.primitiveValue(forKey: "name")
    object.setPrimitiveValue(primitive, forKey: "name")
    let committed: [String: Any] = object.committedValues(forKeys: ["name"])
    let all: [String: Any] = object.committedValues(forKeys: nil)
    let changed: [String: Any] = object.changedValues()
    let event: [String: Any] = object.changedValuesForCurrentEvent()
    _ = (committed, all, changed, event)
    try object.validateForDelete()
    try object.validateForInsert()
    try object.validateForUpdate()
    // DEVIATION (live relationship proxies of the library's own types with NSMutableSet's methods):
    // let set: NSMutableSet = object.mutableSetValue(forKey: "items")
    // let ordered: NSMutableOrderedSet = object.mutableOrderedSetValue(forKey: "items")
    let set = object.mutableSetValue(forKey: "items")
    set.add(object)
    set.remove(object)
    let ordered = object.mutableOrderedSetValue(forKey: "items")
    ordered.add(object)
    _ = (set, ordered)
}

// MARK: NSManagedObjectID

private func probeObjectID(_ id: NSManagedObjectID) {
    let entity: NSEntityDescription = id.entity
    let store: NSPersistentStore? = id.persistentStore
    let temporary: Bool = id.isTemporaryID
    let uri: URL = id.uriRepresentation()
    let copy: Any = id.copy()
    let hashable: AnyHashable = id
    _ = (entity, store, temporary, uri, copy, hashable)
}

// MARK: NSPersistentStoreCoordinator

private func probeCoordinator(_ coordinator: NSPersistentStoreCoordinator, _ store: NSPersistentStore, _ url: URL,
                              _ description: NSPersistentStoreDescription) throws {
    let made = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel())
    let model: NSManagedObjectModel = made.managedObjectModel
    let stores: [NSPersistentStore] = coordinator.persistentStores
    let name: String? = coordinator.name
    coordinator.name = name
    _ = (model, stores)
    let found: NSPersistentStore? = coordinator.persistentStore(for: url)
    let at: URL = coordinator.url(for: store)
    let moved: Bool = coordinator.setURL(url, for: store)
    _ = (found, at, moved)
    let added: NSPersistentStore = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                                      at: url, options: [NSReadOnlyPersistentStoreOption: true])
    try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
    _ = added
    try coordinator.addPersistentStore(type: .sqlite, configuration: nil, at: url, options: nil)
    coordinator.addPersistentStore(with: description) { (loaded: NSPersistentStoreDescription, error: Error?) in
        _ = (loaded, error)
    }
    try coordinator.remove(store)
    let metadata: [String: Any] = coordinator.metadata(for: store)
    coordinator.setMetadata(metadata, for: store)
    let onDisk: [String: Any] = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
    let onDiskByType: [String: Any] = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url, options: nil)
    try NSPersistentStoreCoordinator.setMetadata(onDisk, forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil)
    try NSPersistentStoreCoordinator.setMetadata(onDiskByType, forPersistentStoreOf: .sqlite, at: url, options: nil)
    // DEVIATION (registeredStoreTypes holds the classes ([String: NSPersistentStore.Type]): NSValue cannot wrap a Swift class):
    // let types: [String: NSValue] = NSPersistentStoreCoordinator.registeredStoreTypes
    // _ = types
    let types: [String: NSPersistentStore.Type] = NSPersistentStoreCoordinator.registeredStoreTypes
    _ = types
    NSPersistentStoreCoordinator.registerStoreClass(NSAtomicStore.self, forStoreType: "Custom")
    NSPersistentStoreCoordinator.registerStoreClass(NSAtomicStore.self, type: NSPersistentStore.StoreType(rawValue: "Custom"))
    let id: NSManagedObjectID? = coordinator.managedObjectID(forURIRepresentation: url)
    _ = id
    let migrated: NSPersistentStore = try coordinator.migratePersistentStore(store, to: url, options: nil, withType: NSSQLiteStoreType)
    let migratedByType: NSPersistentStore = try coordinator.migratePersistentStore(store, to: url, options: nil, type: .sqlite)
    _ = (migrated, migratedByType)
    try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: nil)
    try coordinator.destroyPersistentStore(at: url, type: .sqlite, options: nil)
    try coordinator.replacePersistentStore(at: url, destinationOptions: nil, withPersistentStoreFrom: url,
                                           sourceOptions: nil, ofType: NSSQLiteStoreType)
    try coordinator.replacePersistentStore(at: url, destinationOptions: nil, withPersistentStoreFrom: url,
                                           sourceOptions: nil, type: .sqlite)
    let executed: Any = try coordinator.execute(NSFetchRequest<NSManagedObject>(entityName: "Item"),
                                                with: NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType))
    _ = executed
    coordinator.perform { }
    coordinator.performAndWait { }
    let model2: NSManagedObjectModel = coordinator.managedObjectModel
    _ = model2
}

// MARK: NSPersistentContainer and NSPersistentStoreDescription

private func probeContainer(_ url: URL) async throws {
    let container = NSPersistentContainer(name: "Model")
    let withModel = NSPersistentContainer(name: "Model", managedObjectModel: NSManagedObjectModel())
    _ = withModel
    let directory: URL = NSPersistentContainer.defaultDirectoryURL()
    _ = directory
    let name: String = container.name
    let view: NSManagedObjectContext = container.viewContext
    let model: NSManagedObjectModel = container.managedObjectModel
    let coordinator: NSPersistentStoreCoordinator = container.persistentStoreCoordinator
    _ = (name, view, model, coordinator)
    var descriptions: [NSPersistentStoreDescription] = container.persistentStoreDescriptions
    descriptions.append(NSPersistentStoreDescription(url: url))
    container.persistentStoreDescriptions = descriptions
    container.loadPersistentStores { (description: NSPersistentStoreDescription, error: Error?) in _ = (description, error) }
    let background: NSManagedObjectContext = container.newBackgroundContext()
    _ = background
    await container.performBackgroundTask { (context: NSManagedObjectContext) -> Void in _ = context }  // async overload here
    let counted: Int = try await container.performBackgroundTask { (context: NSManagedObjectContext) throws -> Int in
        try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
    }
    _ = counted

    let description = NSPersistentStoreDescription()
    let type: String = description.type
    description.type = NSSQLiteStoreType
    let configuration: String? = description.configuration
    description.configuration = configuration
    let at: URL? = description.url
    description.url = at
    // DEVIATION (options and sqlitePragmas are [String: Any]: Swift values need no NSObject boxing):
    // let options: [String: NSObject] = description.options
    let options: [String: Any] = description.options
    _ = (type, options)
    description.setOption(true as NSNumber, forKey: NSSQLiteAnalyzeOption)
    description.setOption(true as NSNumber, forKey: NSSQLiteManualVacuumOption)
    description.setOption(true as NSNumber, forKey: NSReadOnlyPersistentStoreOption)
    let readOnly: Bool = description.isReadOnly
    description.isReadOnly = readOnly
    let timeout: TimeInterval = description.timeout
    description.timeout = timeout
    // DEVIATION (as options):
    // let pragmas: [String: NSObject] = description.sqlitePragmas
    let pragmas: [String: Any] = description.sqlitePragmas
    _ = pragmas
    description.setValue("WAL" as NSString, forPragmaNamed: "journal_mode")
    let asynchronous: Bool = description.shouldAddStoreAsynchronously
    description.shouldAddStoreAsynchronously = asynchronous
    let migrates: Bool = description.shouldMigrateStoreAutomatically
    description.shouldMigrateStoreAutomatically = migrates
    let infers: Bool = description.shouldInferMappingModelAutomatically
    description.shouldInferMappingModelAutomatically = infers
    let copy: Any = description.copy()
    _ = copy
}

// MARK: NSPersistentStore, NSAtomicStore, NSAtomicStoreCacheNode

private func probeStore(_ store: NSPersistentStore, _ atomic: NSAtomicStore, _ coordinator: NSPersistentStoreCoordinator,
                        _ url: URL, _ object: NSManagedObject, _ entity: NSEntityDescription) throws {
    let metadata: [String: Any] = try NSPersistentStore.metadataForPersistentStore(with: url)
    try NSPersistentStore.setMetadata(metadata, forPersistentStoreAt: url)
    let owner: NSPersistentStoreCoordinator? = store.persistentStoreCoordinator
    let configuration: String = store.configurationName
    let options: [AnyHashable: Any]? = store.options
    let at: URL? = store.url
    store.url = at
    let identifier: String = store.identifier
    store.identifier = identifier
    let type: String = store.type
    let readOnly: Bool = store.isReadOnly
    store.isReadOnly = readOnly
    let stored: [String: Any] = store.metadata
    store.metadata = stored
    _ = (owner, configuration, options, type)
    try store.loadMetadata()
    store.willRemove(from: coordinator)
    store.didAdd(to: coordinator)
    let migrationClass: AnyClass = NSPersistentStore.migrationManagerClass()
    _ = migrationClass

    try atomic.load()
    try atomic.save()
    let node: NSAtomicStoreCacheNode = atomic.newCacheNode(for: object)
    let reference: Any = atomic.newReferenceObject(for: object)
    atomic.addCacheNodes([node])
    atomic.willRemoveCacheNodes([node])
    let cached: NSAtomicStoreCacheNode? = atomic.cacheNode(for: object.objectID)
    atomic.updateCacheNode(node, from: object)
    let id: NSManagedObjectID = atomic.objectID(for: entity, withReferenceObject: reference)
    let back: Any = atomic.referenceObject(for: id)
    let nodes: Set<NSAtomicStoreCacheNode> = atomic.cacheNodes()
    _ = (cached, back, nodes)

    let made = NSAtomicStoreCacheNode(objectID: id)
    let nodeID: NSManagedObjectID = made.objectID
    // DEVIATION (propertyCache is [String: Any]?, a Swift dictionary):
    // let cache: NSMutableDictionary? = made.propertyCache
    // made.propertyCache = cache
    made.propertyCache = keep(made.propertyCache)
    made.setValue("Ada", forKey: "name")
    let name: Any? = made.value(forKey: "name")
    _ = (nodeID, name)
}

// MARK: NSFetchRequest and NSExpressionDescription

private func probeFetchRequest(_ entity: NSEntityDescription, _ store: NSPersistentStore) throws {
    let request = NSFetchRequest<NSManagedObject>()
    let named = NSFetchRequest<NSDictionary>(entityName: "Item")
    _ = named
    let described: NSEntityDescription? = request.entity
    request.entity = described ?? entity
    let name: String? = request.entityName
    _ = name
    request.predicate = NSPredicate(format: "name == %@", "Ada")
    request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
    let limit: Int = request.fetchLimit
    request.fetchLimit = limit
    let offset: Int = request.fetchOffset
    request.fetchOffset = offset
    let batch: Int = request.fetchBatchSize
    request.fetchBatchSize = batch
    let stores: [NSPersistentStore]? = request.affectedStores
    request.affectedStores = stores ?? [store]
    let resultType: NSFetchRequestResultType = request.resultType
    request.resultType = resultType
    request.resultType = .managedObjectIDResultType
    request.resultType = .dictionaryResultType
    request.resultType = .countResultType
    request.includesSubentities = keep(request.includesSubentities)
    request.includesPropertyValues = keep(request.includesPropertyValues)
    request.returnsObjectsAsFaults = keep(request.returnsObjectsAsFaults)
    request.relationshipKeyPathsForPrefetching = request.relationshipKeyPathsForPrefetching ?? ["items"]
    request.includesPendingChanges = keep(request.includesPendingChanges)
    request.returnsDistinctResults = keep(request.returnsDistinctResults)
    let toFetch: [Any]? = request.propertiesToFetch
    request.propertiesToFetch = toFetch ?? ["name"]
    let groupBy: [Any]? = request.propertiesToGroupBy
    request.propertiesToGroupBy = groupBy
    request.havingPredicate = keep(request.havingPredicate)
    request.shouldRefreshRefetchedObjects = keep(request.shouldRefreshRefetchedObjects)
    let results: [NSManagedObject] = try request.execute()
    let requestType: NSPersistentStoreRequestType = request.requestType
    _ = (results, requestType)

    let expression = NSExpressionDescription()
    expression.name = "total"
    expression.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "amount")])
    expression.expressionResultType = .doubleAttributeType
    let resultTypeRead: NSAttributeType = expression.expressionResultType
    _ = resultTypeRead
}

// MARK: NSFetchedResultsController

// DEVIATION (the delegate's methods take NSFetchedResultsController<NSManagedObject>, not <NSFetchRequestResult>):
private final class ProbeDelegate: NSObject, NSFetchedResultsControllerDelegate {
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {}
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {}
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {}
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {}
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>,
                    sectionIndexTitleForSectionName sectionName: String) -> String? { nil }
}

@MainActor
private func probeFetchedResults(_ context: NSManagedObjectContext) throws {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
    request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
    let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                sectionNameKeyPath: "group", cacheName: nil)
    try controller.performFetch()
    let delegate = ProbeDelegate()
    controller.delegate = delegate
    let fetchRequest: NSFetchRequest<NSManagedObject> = controller.fetchRequest
    let owner: NSManagedObjectContext = controller.managedObjectContext
    let keyPath: String? = controller.sectionNameKeyPath
    let cache: String? = controller.cacheName
    NSFetchedResultsController<NSManagedObject>.deleteCache(withName: nil)
    let objects: [NSManagedObject]? = controller.fetchedObjects
    let first: NSManagedObject = controller.object(at: IndexPath(item: 0, section: 0))
    let path: IndexPath? = controller.indexPath(forObject: first)
    let title: String? = controller.sectionIndexTitle(forSectionName: "A")
    let titles: [String] = controller.sectionIndexTitles
    let sections: [NSFetchedResultsSectionInfo]? = controller.sections
    let index: Int = controller.section(forSectionIndexTitle: "A", at: 0)
    _ = (fetchRequest, owner, keyPath, cache, objects, path, title, titles, index)
    if let section = sections?.first {
        let name: String = section.name
        let indexTitle: String? = section.indexTitle
        let count: Int = section.numberOfObjects
        let members: [Any]? = section.objects
        _ = (name, indexTitle, count, members)
    }
    let changes: [NSFetchedResultsChangeType] = [.insert, .delete, .move, .update]
    _ = changes
}

// MARK: NSMergePolicy, NSMergeConflict, NSConstraintConflict

private func probeMergePolicy(_ object: NSManagedObject) throws {
    let policy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    let type: NSMergePolicyType = policy.mergeType
    _ = type
    let shared: [NSMergePolicy] = [.error, .rollback, .overwrite, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump]
    _ = shared
    let policies: [Any] = [NSErrorMergePolicy, NSRollbackMergePolicy, NSOverwriteMergePolicy,
                           NSMergeByPropertyObjectTrumpMergePolicy, NSMergeByPropertyStoreTrumpMergePolicy]
    _ = policies
    let conflict = NSMergeConflict(source: object, newVersion: 2, oldVersion: 1, cachedSnapshot: nil, persistedSnapshot: nil)
    let source: NSManagedObject = conflict.sourceObject
    let snapshots: [[String: Any]?] = [conflict.objectSnapshot, conflict.cachedSnapshot, conflict.persistedSnapshot]
    let versions: [Int] = [conflict.newVersionNumber, conflict.oldVersionNumber]
    _ = (source, snapshots, versions)
    try policy.resolve(mergeConflicts: [conflict])
    try policy.resolve(optimisticLockingConflicts: [conflict])
    let constraint = NSConstraintConflict(constraint: ["email"], database: object, databaseSnapshot: nil,
                                          conflicting: [object], conflictingSnapshots: [])
    let keys: [String] = constraint.constraint
    let values: [String: Any] = constraint.constraintValues
    let databaseObject: NSManagedObject? = constraint.databaseObject
    let databaseSnapshot: [String: Any]? = constraint.databaseSnapshot
    let conflicting: [NSManagedObject] = constraint.conflictingObjects
    let conflictingSnapshots: [[AnyHashable: Any]] = constraint.conflictingSnapshots
    _ = (keys, values, databaseObject, databaseSnapshot, conflicting, conflictingSnapshots)
    try policy.resolve(constraintConflicts: [constraint])
}

/// A policy subclass as Apple's documentation writes one: the overrides call `super`.
private final class ProbeMergePolicy: NSMergePolicy, @unchecked Sendable {
    init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

    override func resolve(mergeConflicts list: [Any]) throws { try super.resolve(mergeConflicts: list) }
    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        try super.resolve(optimisticLockingConflicts: list)
    }
    override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        try super.resolve(constraintConflicts: list)
    }
}

/// The probe's value is that this file compiles; this test only keeps the functions referenced so none is reported
/// as unused, and checks one constant of each kind against Apple's value.
struct AppleAPISurfaceTests {
    @Test func probeFunctionsExistWithApplesValues() {
        let probes: [Any] = [probeContext, probeContextNotifications, probeObject, probeObjectID, probeCoordinator,
                             probeContainer, probeStore, probeFetchRequest, probeFetchedResults, probeMergePolicy,
                             probeEntity, probeProperties, probeModel, probeMigration, probeConstants]
        #expect(probes.count == 15)
        #expect(NSManagedObjectValidationError == 1550)
        #expect(NSSQLiteStoreType == "SQLite")
        #expect(NSInsertedObjectsKey == "inserted")
    }
}
