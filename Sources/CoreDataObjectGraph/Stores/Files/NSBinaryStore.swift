import CoreDataModel
import Foundation

/// Core Data's binary store (`NSBinaryStoreType`): every object in one file, a 64-byte header then keyed archives of the
/// objects and the metadata, in Apple's format. An atomic store: the whole file is read when the store is added and
/// written again, atomically (a temporary file renamed over the old one), at every save. Faster to load than the XML
/// store (no text to parse); SQLite is the store that scales.
///
/// Adding one where no file exists creates it with the model's metadata. Objects keep the reference numbers the file
/// gives them; new ones number on from the file's mark.
public final class NSBinaryStore: NSAtomicStore, @unchecked Sendable {
    public override class var storeType: String { NSBinaryStoreType }

    /// The largest reference number handed out; new objects take the next ones.
    private var referenceMark: Int64 = 0

    /// Reads the file (or creates it when missing): metadata first, checked against the model, then one node per object.
    public override func load() throws {
        referenceMark = try loadStoreFile(.binary)
    }

    /// Writes every node and the metadata to the file, atomically.
    public override func save() throws {
        try saveStoreFile(.binary, referenceMark: referenceMark)
    }

    public override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        referenceMark += 1
        return referenceMark
    }

    public override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        copyValues(from: managedObject, to: node)
        return node
    }

    public override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        copyValues(from: managedObject, to: node)
    }

    /// The metadata of the binary store at `url`, read without reading its objects.
    public override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try AtomicFileFormat.binary.readMetadata(at: url)
    }

    /// Removes the store file; a file that is not a binary store is refused, so a wrong URL never deletes a document.
    override class func checkDestroyable(at url: URL) throws {
        try AtomicFileFormat.binary.checkIsStore(at: url, storeType: storeType, action: "destroyed")
    }

    override class func destroyStore(at url: URL, options: [String: Any]) throws {
        try AtomicFileFormat.binary.checkIsStore(at: url, storeType: storeType, action: "destroyed")
        try super.destroyStore(at: url, options: options)
    }

    /// Replaces the metadata of the binary store at `url`: the whole file is written again, atomically.
    public override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try AtomicFileFormat.binary.writeMetadata(metadata, at: url, storeType: storeType)
    }
}
