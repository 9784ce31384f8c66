import CoreDataModel
import Foundation

/// A store that reads and writes all of its objects at once, as Apple's `NSAtomicStore`: the base class of the XML,
/// binary and in-memory stores and of custom file formats.
///
/// A subclass overrides:
/// - ``load()``: reads the file at ``NSPersistentStore/url`` (a missing or empty file is a new store), sets
///   ``NSPersistentStore/metadata`` from it, makes one ``NSAtomicStoreCacheNode`` per object with an ID from
///   ``objectID(for:withReferenceObject:)``, fills the nodes' values and registers them with ``addCacheNodes(_:)``;
/// - ``newReferenceObject(for:)``: a unique, hashable reference (a string, a number) for an object saved the first time;
/// - ``newCacheNode(for:)`` and ``updateCacheNode(_:from:)``: a node's values from a managed object
///   (``copyValues(from:to:)`` does it the usual way);
/// - ``save()``: writes every node (``cacheNodes()``) and the metadata to the file, atomically
///   (``writeAtomically(_:to:)``);
/// - optionally ``willRemoveCacheNodes(_:)``, told before deleted objects' nodes go.
///
/// A method that must be overridden and is not makes the load or save fail with an error naming the class and the
/// method; it never traps. Everything else is provided: fetching (every fetch option, evaluated in memory on the
/// nodes by the same engine as ``NSInMemoryStore``), faulting, optimistic locking, metadata with the store's UUID and
/// the model's version hashes.
open class NSAtomicStore: NSPersistentStore, @unchecked Sendable {
    /// The registered nodes and the in-memory fetch engine over them.
    let table = InMemoryRowTable()
    /// Nodes made during a save, found by ``cacheNode(for:)`` before they are registered.
    var pendingNodes: [NSManagedObjectID: NSAtomicStoreCacheNode] = [:]
    /// Permanent IDs by the temporary ones objects had when a save began (relationships still hold those).
    var permanentIDsDuringSave: [NSManagedObjectID: NSManagedObjectID] = [:]
    /// While new nodes are made one by one, a destination saved in the same save may have no node yet: it is found
    /// when the nodes are updated once all exist, so a missing one is not a problem until then.
    var destinationsMayBeMissing = false
    /// Whether ``load()`` is running.
    var isLoading = false
    /// What went wrong in a call that cannot throw (Apple's signatures): reported by the load or save that made it.
    var pendingProblems: [String] = []

    // MARK: What subclasses override

    /// Reads the store and registers its objects' nodes (``addCacheNodes(_:)``). Subclasses must override it.
    open override func load() throws {
        throw missingOverride("load()")
    }

    /// Writes every registered node and the metadata to the store's file. Called at the end of each save, after the
    /// nodes have been created, updated and removed; when it throws, the nodes are put back as they were and the save
    /// fails. Subclasses must override it.
    open func save() throws {
        throw missingOverride("save()")
    }

    /// A new reference object for `managedObject`, saved for the first time: unique within its entity's inheritance
    /// tree, and hashable. Subclasses must override it.
    open func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        pendingProblems.append(missingOverride("newReferenceObject(for:)").message)
        return UUID().uuidString
    }

    /// A new node for `managedObject`, saved for the first time (its ``NSManagedObject/objectID`` is already the
    /// permanent one): the node's ID must be that ID. Subclasses must override it.
    open func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        pendingProblems.append(missingOverride("newCacheNode(for:)").message)
        return NSAtomicStoreCacheNode(objectID: managedObject.objectID)
    }

    /// Brings `node` in line with `managedObject`'s values. Subclasses must override it.
    open func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        pendingProblems.append(missingOverride("updateCacheNode(_:from:)").message)
    }

    /// Tells the store that `cacheNodes` are about to be removed (their objects were deleted). Does nothing by default.
    open func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {}

    // MARK: Provided

    /// Registers nodes with the store; a subclass calls it from ``load()``. A node whose object ID is registered
    /// already (a duplicate reference object), or that belongs to another store, makes the load fail.
    public func addCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        let store = storeIdentifier
        for node in cacheNodes.sorted(by: { $0.objectID.primaryKey < $1.objectID.primaryKey }) {
            guard node.objectID.storeIdentifier == store else {
                pendingProblems.append("\(node.objectID.uriRepresentation().absoluteString): a cache node of another store (or with a "
                                       + "temporary ID) was added to \(urlDescription); make node IDs with objectID(for:withReferenceObject:)")
                continue
            }
            if !table.add(node) {
                pendingProblems.append("\(urlDescription): two cache nodes have the ID \(node.objectID.uriRepresentation().absoluteString) "
                                       + "(reference object \(referenceObject(for: node.objectID)) of \(node.objectID.entity.entityName) is used twice)")
            }
        }
    }

    /// Registers the nodes a built-in store made in `load()` with IDs of its own (so of this store), in the order
    /// given: `addCacheNodes(_:)` without building a set and sorting it. A duplicate ID still makes the load fail.
    final func registerLoadedNodes(_ nodes: [NSAtomicStoreCacheNode]) {
        for node in nodes where !table.add(node) {
            pendingProblems.append("\(urlDescription): two cache nodes have the ID \(node.objectID.uriRepresentation().absoluteString) "
                                   + "(reference object \(referenceObject(for: node.objectID)) of \(node.objectID.entity.entityName) is used twice)")
        }
    }

    /// Every registered node.
    public func cacheNodes() -> Set<NSAtomicStoreCacheNode> {
        Set(table.allNodes)
    }

    /// The node of the object `objectID`, or nil.
    public func cacheNode(for objectID: NSManagedObjectID) -> NSAtomicStoreCacheNode? {
        table.node(for: objectID) ?? pendingNodes[objectID]
    }

    /// The reference object that `objectID` was made from (``objectID(for:withReferenceObject:)``).
    public func referenceObject(for objectID: NSManagedObjectID) -> Any {
        table.referenceObject(for: objectID) ?? objectID.primaryKey
    }

    /// The ID of the object of `entity` whose reference object is `data`: the same reference gives the same ID.
    public func objectID(for entity: NSEntityDescription, withReferenceObject data: Any) -> NSManagedObjectID {
        // During a load, the UUID the file's metadata names is the store's: IDs made from then on carry it.
        if isLoading, table.count == 0, let uuid = metadata[NSStoreUUIDKey] as? String, !uuid.isEmpty { storeIdentifier = uuid }
        return newObjectID(for: entity, primaryKey: table.primaryKey(for: data, entity: entity))
    }

    /// Sets `node`'s values from `managedObject` as Apple's stores record them: attributes as their values, a to-one
    /// relationship as the destination's node, a to-many one as a `Set` of nodes (an array, in order, when ordered).
    /// What ``updateCacheNode(_:from:)`` usually does; destinations saved in the same save are found too.
    public func copyValues(from managedObject: NSManagedObject, to node: NSAtomicStoreCacheNode) {
        guard let coordinator = persistentStoreCoordinator else { return }
        let slots = coordinator.slots(for: managedObject.entity)
        if let values = managedObject.storedValues {
            for (slot, property) in slots.properties.enumerated() where slot < values.count {
                switch values[slot] {
                case .null:
                    node.setValue(nil, forKey: property.name)
                case .attribute(let value):
                    node.setValue(value.anyValue, forKey: property.name)
                case .toOne(let id):
                    node.setValue(destinationNode(id, of: managedObject, property: property.name), forKey: property.name)
                case .externalData(let reference):
                    pendingProblems.append("\(managedObject.objectID.uriRepresentation().absoluteString): \(property.name) refers to external "
                                           + "data \(reference), which \(Swift.type(of: self)) cannot read")
                }
            }
        }
        for relationship in slots.persistentRelationships where relationship.isToMany {
            if let ids = managedObject.toMany[relationship.name]?.ids {
                let nodes = ids.compactMap { destinationNode($0, of: managedObject, property: relationship.name) }
                node.setValue(relationship.isOrdered ? nodes as Any : Set(nodes) as Any, forKey: relationship.name)
            } else if managedObject.isInserted {
                node.setValue(relationship.isOrdered ? [NSAtomicStoreCacheNode]() as Any : Set<NSAtomicStoreCacheNode>() as Any,
                              forKey: relationship.name)
            }
        }
    }

    private func destinationNode(_ id: NSManagedObjectID, of object: NSManagedObject, property: String) -> NSAtomicStoreCacheNode? {
        let resolved = permanentIDsDuringSave[id] ?? id
        if let node = cacheNode(for: resolved) { return node }
        if destinationsMayBeMissing { return nil }
        pendingProblems.append("\(object.objectID.uriRepresentation().absoluteString): \(property) leads to "
                               + "\(resolved.uriRepresentation().absoluteString), which is not in \(urlDescription)")
        return nil
    }

    // MARK: Loading

    override func loadStore() throws {
        table.removeAll()
        pendingProblems = []
        isLoading = true
        defer { isLoading = false }
        try loadMetadata()
        try load()
        try reportProblems(.persistentStoreOpen, "the store could not be loaded")
        try completeMetadata()
    }

    /// After a load: the metadata names the store type, its UUID and (for a new store) the model's version hashes; a
    /// store whose recorded hashes differ from the model is refused, as every store type does.
    private func completeMetadata() throws {
        if let uuid = metadata[NSStoreUUIDKey] as? String, !uuid.isEmpty {
            if uuid != storeIdentifier && !table.allNodes.isEmpty {
                throw CoreDataError(.persistentStoreOpen, "\(urlDescription): the metadata's store UUID \(uuid) was set after cache nodes "
                                    + "were made with the UUID \(storeIdentifier); set the metadata first in load()")
            }
            storeIdentifier = uuid
        } else {
            metadata[NSStoreUUIDKey] = storeIdentifier
        }
        metadata[NSStoreTypeKey] = type
        guard let model = persistentStoreCoordinator?.managedObjectModel else { return }
        if metadata[NSStoreModelVersionHashesKey] == nil {
            metadata[NSStoreModelVersionHashesKey] = model.entityVersionHashesByName
        } else if (storeOptions[NSIgnorePersistentStoreVersioningOption] as? Bool) != true,
                  !model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata) {
            throw CoreDataError(.persistentStoreIncompatibleVersionHash,
                                "\(urlDescription): the model used to open the store is incompatible with the one used to create it "
                                    + "(the entity version hashes in its metadata differ)")
        }
    }

    /// Throws the problems recorded by calls that cannot throw, and forgets them.
    func reportProblems(_ code: CoreDataError.Code, _ what: String) throws {
        guard !pendingProblems.isEmpty else { return }
        let problems = pendingProblems
        pendingProblems = []
        throw CoreDataError(code, "\(what): " + problems.joined(separator: "; "))
    }

    func missingOverride(_ method: String) -> CoreDataError {
        CoreDataError(.persistentStoreOperation,
                      "\(Swift.type(of: self)) does not override NSAtomicStore.\(method), which every atomic store must implement")
    }

    var urlDescription: String { url?.path ?? "the \(type) store" }
}
