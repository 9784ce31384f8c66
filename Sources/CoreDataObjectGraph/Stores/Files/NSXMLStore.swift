import AtomicStoreFormats
import CoreDataModel
import Foundation

/// Core Data's XML store (`NSXMLStoreType`): every object in one XML document, in Apple's format (the format Xcode's
/// mapping models, `.xcmappingmodel/xcmapping.xml`, are written in), so files move between OpenCoreData and Apple's
/// framework both ways. An atomic store: the whole file is read when the store is added and written again, atomically
/// (a temporary file renamed over the old one), at every save. Readable by a person and slow for large data sets.
///
/// Adding one where no file exists creates it with the model's metadata. Objects keep the reference numbers the file
/// gives them; new ones number on from the file's mark.
public final class NSXMLStore: NSAtomicStore, @unchecked Sendable {
    public override class var storeType: String { NSXMLStoreType }

    /// The largest reference number handed out; new objects take the next ones.
    private var referenceMark: Int64 = 0

    /// Reads the file (or creates it when missing): metadata first, checked against the model, then one node per object.
    public override func load() throws {
        referenceMark = try loadStoreFile(.xml)
    }

    /// Writes every node and the metadata to the file, atomically.
    public override func save() throws {
        try saveStoreFile(.xml, referenceMark: referenceMark)
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

    /// The metadata of the xml store at `url`, read without reading its objects.
    public override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try AtomicFileFormat.xml.readMetadata(at: url)
    }

    /// Removes the store file; a file that is not a xml store is refused, so a wrong URL never deletes a document.
    override class func checkDestroyable(at url: URL) throws {
        try AtomicFileFormat.xml.checkIsStore(at: url, storeType: storeType, action: "destroyed")
    }

    override class func destroyStore(at url: URL, options: [String: Any]) throws {
        try AtomicFileFormat.xml.checkIsStore(at: url, storeType: storeType, action: "destroyed")
        try super.destroyStore(at: url, options: options)
    }

    /// Replaces the metadata of the xml store at `url`: the whole file is written again, atomically.
    public override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try AtomicFileFormat.xml.writeMetadata(metadata, at: url, storeType: storeType)
    }

    /// A model read from the XML store at `url` alone, for a store whose model is not at hand (an Xcode mapping model,
    /// `.xcmappingmodel/xcmapping.xml`): one entity per object type named, with the properties and types the file
    /// gives, every property optional. Open the store with it and `NSIgnorePersistentStoreVersioningOption`.
    public static func inferredModel(at url: URL) throws -> NSManagedObjectModel {
        let data = try AtomicFileFormat.read(url)
        do {
            return try XMLStoreFormat.inferModel(from: data, file: url.path)
        } catch {
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
    }
}
