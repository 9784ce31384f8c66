import Foundation
import OpenCoreData

/// `StoreStressHelper atomic-saves STORE N`: N saves of a custom atomic store, each adding one object of a megabyte,
/// so each save rewrites the whole, growing file through `writeAtomically` (the path the XML and binary stores take).
/// Prints "saving K" before save K and "saved K" after it; the parent kills the process in between.
///
/// The file is text: a header line, one line per object ("REF<TAB>PAYLOAD"), and a trailer "END COUNT BYTES" (the
/// objects, and the bytes before the trailer), so a file cut short, or mixing two saves, is seen at once.
final class MegabyteLinesStore: NSAtomicStore, @unchecked Sendable {
    override class var storeType: String { "MegabyteLines" }
    static let header = "MEGABYTE-LINES 1"

    override func load() throws {
        guard let url, let data = FileManager.default.contents(atPath: url.path), !data.isEmpty else { return }
        let lines = try Self.validLines(data, path: url.path)
        let entity = persistentStoreCoordinator!.managedObjectModel.entitiesByName["Blob"]!
        var nodes = Set<NSAtomicStoreCacheNode>()
        for line in lines {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: Int(parts[0])!))
            node.setValue(parts[1], forKey: "payload")
            nodes.insert(node)
        }
        addCacheNodes(nodes)
    }

    /// The object lines of a whole file, or an error saying where it is damaged.
    static func validLines(_ data: Data, path: String) throws -> [String] {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == header, lines.count >= 3, lines.last == "" else {
            throw CoreDataError(.persistentStoreOpen, "\(path): not a whole MegabyteLines file (\(data.count) bytes)")
        }
        let objects = Array(lines[1..<(lines.count - 2)])
        let trailer = lines[lines.count - 2]
        guard trailer == "END \(objects.count) \(data.count - trailer.utf8.count - 1)" else {
            throw CoreDataError(.persistentStoreOpen, "\(path): the trailer \"\(lines[lines.count - 2])\" does not match the file")
        }
        return objects
    }

    private var lastReference = 0
    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        lastReference = max(lastReference, cacheNodes().compactMap { referenceObject(for: $0.objectID) as? Int }.max() ?? 0) + 1
        return lastReference
    }

    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        copyValues(from: managedObject, to: node)
        return node
    }

    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        copyValues(from: managedObject, to: node)
    }

    override func save() throws {
        var text = Self.header + "\n"
        let nodes = cacheNodes().sorted { (referenceObject(for: $0.objectID) as! Int) < (referenceObject(for: $1.objectID) as! Int) }
        for node in nodes {
            text += "\(referenceObject(for: node.objectID))\t\(node.value(forKey: "payload") as? String ?? "")\n"
        }
        // The trailer states how many bytes come before it.
        let trailer = "END \(nodes.count) \(text.utf8.count)\n"
        try writeAtomically(Data((text + trailer).utf8), to: url!)
    }
}

func runAtomicSaves(store url: URL, saves: Int) throws {
    NSPersistentStoreCoordinator.registerStoreClass(MegabyteLinesStore.self, type: MegabyteLinesStore.storeType)
    let blob = NSEntityDescription(name: "Blob")
    blob.setProperties([NSAttributeDescription(name: "payload", type: .stringAttributeType)])
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [blob]))
    try coordinator.addPersistentStore(ofType: MegabyteLinesStore.storeType, at: url)
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    let payload = String(repeating: "abcdefghijklmnop", count: 65_536)  // one megabyte
    try context.performAndWait {
        let existing = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Blob"))
        for save in (existing + 1)...(existing + saves) {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Blob", into: context)
            object.setValue("\(save) " + payload, forKey: "payload")
            say("saving \(save)")
            try context.save()
            say("saved \(save)")
            context.reset()
        }
    }
}
