import CoreDataModel
import Foundation

/// A save of an atomic store, in Apple's order: permanent IDs for new objects (``NSAtomicStore/newReferenceObject(for:)``),
/// a node for each (``NSAtomicStore/newCacheNode(for:)``), updated nodes (``NSAtomicStore/updateCacheNode(_:from:)``),
/// removed nodes (``NSAtomicStore/willRemoveCacheNodes(_:)``), then ``NSAtomicStore/save()`` writes the file. Versions
/// are checked first (optimistic locking, as SQLite's `Z_OPT`), and a failure at any step puts every node back.
extension NSAtomicStore {
    public func save(_ request: SaveRequest) throws -> SaveOutcome {
        guard !isReadOnly else { throw CoreDataError(.persistentStoreSave, "\(urlDescription) is open read-only; nothing was written") }
        if let writeRefusal { throw CoreDataError(.persistentStoreSave, "\(writeRefusal); nothing was written") }
        // Optimistic locking: every updated and deleted object's node must still be at the version the object read.
        var conflicts: [NSManagedObjectID] = []
        var updatedNodes: [NSAtomicStoreCacheNode] = []
        updatedNodes.reserveCapacity(request.updated.count)
        for object in request.updated {
            // An object changed only through the inverse of a to-many, never read, takes the version it has now (as
            // the SQLite store reads such rows' versions inside its transaction).
            if object.storedValues == nil, object.pendingValues == nil, let node = table.node(for: object.objectID) {
                object.snapshotVersion = node.version
            }
            guard let node = table.node(for: object.objectID), node.version == object.snapshotVersion else {
                conflicts.append(object.objectID)
                continue
            }
            updatedNodes.append(node)
        }
        var deletedNodes: [NSAtomicStoreCacheNode] = []
        for object in request.deleted {
            guard let node = table.node(for: object.objectID), node.version == object.snapshotVersion else {
                conflicts.append(object.objectID)
                continue
            }
            deletedNodes.append(node)
        }
        guard conflicts.isEmpty else {
            throw CoreDataError(
                .managedObjectMerge,
                "optimistic locking failure: \(conflicts.count) object(s) changed or were deleted in the store since they were read: "
                    + conflicts.map { $0.uriRepresentation().absoluteString }.joined(separator: ", "),
                affectedObjectIDs: conflicts)
        }
        // New objects take their permanent IDs before their nodes are made, as in Apple's framework: the node's ID is the
        // object's. Relationships still hold the temporary IDs; they are resolved through this table.
        let temporary = request.inserted.filter(\.objectID.isTemporaryID)
        let permanent = try reservePrimaryKeys(for: temporary)
        for (object, id) in zip(temporary, permanent) {
            object.managedObjectContext?.rekey([object], to: [id])
        }
        permanentIDsDuringSave = [:]
        for object in request.inserted {
            if let temporaryID = object.changes.temporaryID { permanentIDsDuringSave[temporaryID] = object.objectID }
        }
        defer {
            permanentIDsDuringSave = [:]
            pendingNodes = [:]
            pendingProblems = []
        }
        let previous = updatedNodes.map { (node: $0, values: $0.propertyCache, version: $0.version) }
        var added: [NSAtomicStoreCacheNode] = []
        do {
            pendingProblems = []
            destinationsMayBeMissing = true
            defer { destinationsMayBeMissing = false }
            for object in request.inserted {
                let node = newCacheNode(for: object)
                guard node.objectID == object.objectID else {
                    throw CoreDataError(.persistentStoreSave, "\(Swift.type(of: self)).newCacheNode(for:) returned a node with the ID "
                                        + "\(node.objectID.uriRepresentation().absoluteString) for the object "
                                        + "\(object.objectID.uriRepresentation().absoluteString); a node takes its object's ID")
                }
                pendingNodes[node.objectID] = node
                added.append(node)
            }
            // Relationships between objects inserted together find each other's nodes now that all of them exist.
            destinationsMayBeMissing = false
            for (object, node) in zip(request.inserted, added) where !object.slots.persistentRelationships.isEmpty {
                updateCacheNode(node, from: object)
            }
            for (object, node) in zip(request.updated, updatedNodes) {
                updateCacheNode(node, from: object)
            }
            try reportProblems(.persistentStoreSave, "nothing was saved")
            if !deletedNodes.isEmpty { willRemoveCacheNodes(Set(deletedNodes)) }
            for node in added where !table.add(node) {
                throw CoreDataError(.persistentStoreSave, "\(urlDescription): two objects have the ID \(node.objectID.uriRepresentation().absoluteString) "
                                    + "(a reference object is used twice); nothing was saved")
            }
            table.remove(deletedNodes)
            for node in updatedNodes { node.version += 1 }
            table.changed()
            do {
                try save()
            } catch let error as CoreDataError {
                throw error
            } catch {
                throw CoreDataError(.persistentStoreSave, "\(urlDescription): the store could not be written; nothing was saved: \(error)",
                                    underlyingError: error)
            }
        } catch {
            // Every node as it was before the save.
            table.remove(added)
            for node in deletedNodes { table.add(node) }
            for (node, values, version) in previous {
                node.propertyCache = values
                node.version = version
            }
            table.changed()
            throw error
        }
        hasUnsavedMetadata = false
        return SaveOutcome(permanentIDs: request.inserted.map(\.objectID), updatedVersions: updatedNodes.map(\.version))
    }

    /// Permanent IDs from new reference objects (``NSAtomicStore/newReferenceObject(for:)``); objects that have one keep it.
    public func reservePrimaryKeys(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        guard !isReadOnly else { throw CoreDataError(.persistentStoreSave, "\(urlDescription) is open read-only") }
        pendingProblems = []
        var ids: [NSManagedObjectID] = []
        var given: Set<NSManagedObjectID> = []
        for object in objects {
            guard object.objectID.isTemporaryID else {
                ids.append(object.objectID)
                continue
            }
            let reference = newReferenceObject(for: object)
            try reportProblems(.persistentStoreSave, "no permanent ID could be made for \(object.entity.entityName)")
            let id = objectID(for: object.entity, withReferenceObject: reference)
            guard table.node(for: id) == nil, given.insert(id).inserted else {
                throw CoreDataError(.persistentStoreSave, "\(Swift.type(of: self)).newReferenceObject(for:) returned \(reference) for a new "
                                    + "\(object.entity.entityName), a reference object already in use; nothing was saved")
            }
            ids.append(id)
        }
        return ids
    }
}
