import CoreDataModel
import Foundation

/// Core Data's in-memory store (`NSInMemoryStoreType`): every object lives in memory, as cache nodes of an atomic store
/// that never reads or writes a file. What unit tests and caches use: every fetch option works on it as on SQLite
/// (predicates are evaluated by the predicate module's evaluator, sorts by `NSSortDescriptor`), with saves, optimistic
/// locking, undo and nested contexts, until the store is removed from its coordinator.
///
/// Its URL, if any, names no file: several in-memory stores may share one (Apple's code often passes `/dev/null`).
public final class NSInMemoryStore: NSAtomicStore, @unchecked Sendable {
    public override class var storeType: String { NSInMemoryStoreType }
    override class var keepsNoFiles: Bool { true }

    /// The reference objects of new objects: a number counting up.
    private var lastReference: Int64 = 0

    /// A new in-memory store is empty; there is nothing to read.
    public override func load() throws {
        lastReference = 0
    }

    /// There is no file: a save ends when the nodes are updated.
    public override func save() throws {}

    public override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        lastReference += 1
        return lastReference
    }

    public override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        copyValues(from: managedObject, to: node)
        return node
    }

    public override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        copyValues(from: managedObject, to: node)
    }

    /// Removing the store drops its objects, as Apple's does.
    public override func willRemove(from coordinator: NSPersistentStoreCoordinator?) {
        table.removeAll()
    }

    /// An in-memory store has no file to read metadata from.
    public override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        throw CoreDataError(.persistentStoreOperation, "\(url.path): an in-memory store keeps no file, so it has no metadata there")
    }

    /// An in-memory store has no file to write metadata to.
    public override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        throw CoreDataError(.persistentStoreOperation, "\(url.path): an in-memory store keeps no file, so its metadata cannot be written there")
    }

    /// There is no file to remove.
    override class func destroyStore(at url: URL, options: [String: Any]) throws {}

    override class func replaceStore(at destination: URL, withStoreFrom source: URL, options: [String: Any]) throws {
        throw CoreDataError(.persistentStoreOperation, "\(destination.path): in-memory stores keep no files, so one cannot replace another")
    }
}
