import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// A custom atomic store as an app would write one, through Apple's contract only: a JSON file of objects with
/// reference strings, to-one relationships by reference. Its inverse to-many sides are rebuilt on load.
final class JSONTestStore: NSAtomicStore, @unchecked Sendable {
    override class var storeType: String { "JSONTest" }
    /// Set by a test to make the next `save()` fail after the nodes were updated.
    nonisolated(unsafe) static var failNextSave = false

    override func load() throws {
        guard let url else { throw CoreDataError(.persistentStoreOpen, "a JSON store needs a URL") }
        guard let data = FileManager.default.contents(atPath: url.path), !data.isEmpty else { return }  // a new store
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        metadata = root["metadata"] as? [String: Any] ?? [:]
        if let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: String] {
            metadata[NSStoreModelVersionHashesKey] = hashes.compactMapValues { Data(base64Encoded: $0) }
        }
        let model = persistentStoreCoordinator!.managedObjectModel
        var nodes: [String: NSAtomicStoreCacheNode] = [:]
        let records = root["objects"] as? [[String: Any]] ?? []
        var made: [NSAtomicStoreCacheNode] = []
        for record in records {
            let entity = model.entitiesByName[record["entity"] as? String ?? ""]!
            let reference = record["ref"] as! String
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: reference))
            for (key, value) in record["values"] as? [String: Any] ?? [:] { node.setValue(value, forKey: key) }
            nodes["\(entity.entityName)/\(reference)"] = node
            made.append(node)
        }
        for (record, node) in zip(records, made) {
            for (key, target) in record["toOne"] as? [String: String] ?? [:] {
                let relationship = node.objectID.entity.relationshipsByName[key]!
                guard let destination = nodes["\(relationship.destinationEntity!.entityName)/\(target)"] else {
                    throw CoreDataError(.persistentStoreOpen, "\(url.path): \(record["ref"]!).\(key) refers to \(target), which is not in the file")
                }
                node.setValue(destination, forKey: key)
                if let inverse = relationship.inverseRelationship, inverse.isToMany {
                    var set = destination.value(forKey: inverse.name) as? Set<NSAtomicStoreCacheNode> ?? []
                    set.insert(node)
                    destination.setValue(set, forKey: inverse.name)
                }
            }
        }
        addCacheNodes(Set(made))
    }

    override func newReferenceObject(for managedObject: NSManagedObject) -> Any { UUID().uuidString }

    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        updateCacheNode(node, from: managedObject)
        return node
    }

    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        copyValues(from: managedObject, to: node)
    }

    override func save() throws {
        if Self.failNextSave {
            Self.failNextSave = false
            throw CocoaError(.fileWriteNoPermission)
        }
        var records: [[String: Any]] = []
        for node in cacheNodes().sorted(by: { "\(referenceObject(for: $0.objectID))" < "\(referenceObject(for: $1.objectID))" }) {
            var values: [String: Any] = [:], toOne: [String: String] = [:]
            for (key, value) in node.propertyCache ?? [:] {
                if let destination = value as? NSAtomicStoreCacheNode {
                    toOne[key] = referenceObject(for: destination.objectID) as? String
                } else if !(value is Set<NSAtomicStoreCacheNode>) && !(value is [NSAtomicStoreCacheNode]) {
                    values[key] = value
                }
            }
            records.append(["entity": node.objectID.entity.entityName, "ref": referenceObject(for: node.objectID), "values": values, "toOne": toOne])
        }
        var metadata: [String: Any] = self.metadata
        metadata[NSStoreModelVersionHashesKey] = (metadata[NSStoreModelVersionHashesKey] as? [String: Data])?.mapValues { $0.base64EncodedString() }
        let data = try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": records], options: [.sortedKeys])
        try writeAtomically(data, to: url!)
    }
}

/// A subclass that overrides nothing, and others that stop at each required method.
final class BareAtomicStore: NSAtomicStore, @unchecked Sendable {
    override class var storeType: String { "BareAtomic" }
}

final class LoadOnlyAtomicStore: NSAtomicStore, @unchecked Sendable {
    override class var storeType: String { "LoadOnlyAtomic" }
    override func load() throws {}
}

final class NoCacheNodeAtomicStore: NSAtomicStore, @unchecked Sendable {
    override class var storeType: String { "NoCacheNodeAtomic" }
    override func load() throws {}
    override func newReferenceObject(for managedObject: NSManagedObject) -> Any { UUID() }
}

final class NoSaveAtomicStore: NSAtomicStore, @unchecked Sendable {
    override class var storeType: String { "NoSaveAtomic" }
    override func load() throws {}
    override func newReferenceObject(for managedObject: NSManagedObject) -> Any { UUID() }
    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        NSAtomicStoreCacheNode(objectID: managedObject.objectID)
    }
    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {}
}

@Suite(.serialized)
struct AtomicStoreTests {
    init() {
        for store in [JSONTestStore.self, BareAtomicStore.self, LoadOnlyAtomicStore.self, NoCacheNodeAtomicStore.self, NoSaveAtomicStore.self] as [NSPersistentStore.Type] {
            NSPersistentStoreCoordinator.registerStoreClass(store, type: store.storeType)
        }
    }

    static func model(isbn: Bool = false) -> NSManagedObjectModel {
        let author = NSEntityDescription(name: "Author")
        let book = NSEntityDescription(name: "Book")
        let books = NSRelationshipDescription(name: "books", destinationEntityName: "Book")
        books.inverseRelationshipName = "author"
        let writer = NSRelationshipDescription(name: "author", destinationEntityName: "Author")
        writer.inverseRelationshipName = "books"
        writer.maxCount = 1
        author.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), books])
        book.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType),
                            NSAttributeDescription(name: "pages", type: .integer32AttributeType), writer]
                           + (isbn ? [NSAttributeDescription(name: "isbn", type: .stringAttributeType)] : []))
        for property in author.ownProperties + book.ownProperties { property.isOptional = true }
        return NSManagedObjectModel(entities: [author, book])
    }

    private func context(_ url: URL, type: String = "JSONTest", model: NSManagedObjectModel = model()) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    private func seed(_ url: URL) throws {
        let context = try context(url)
        try context.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue("Ann", forKey: "name")
            for (title, pages) in [("Beta", 200), ("Alpha", 120), ("Gamma", 90)] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(Int32(pages), forKey: "pages")
                book.setValue(author, forKey: "author")
            }
            try context.save()
        }
    }

    @Test func aCustomAtomicStoreSavesItsFileAndLoadsItAgain() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("books/store.json")
        try seed(url)
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect((file["objects"] as? [Any])?.count == 4)
        let context = try context(url)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = Predicates.NSPredicate(format: "author.name == 'Ann' AND pages > 100")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "title", ascending: true)]
            let books = try context.fetch(request)
            #expect(books.map { $0.value(forKey: "title") as? String } == ["Alpha", "Beta"])
            #expect(books[0].value(forKey: "pages", as: Int32.self) == 120)
            let author = try #require(books[0].value(forKey: "author") as? NSManagedObject)
            #expect((author.value(forKey: "books") as? Set<NSManagedObject>)?.count == 3, "the to-many side rebuilt on load")
            books[0].setValue("Alpha, revised", forKey: "title")
            context.delete(books[1])
            try context.save()
        }
        let reloaded = try self.context(url)
        try reloaded.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "title", ascending: true)]
            let titles = try reloaded.fetch(request).map { $0.value(forKey: "title") as? String }
                #expect(titles == ["Alpha, revised", "Gamma"])
        }
    }

    @Test func cacheNodesAreKeyValueCodingCompliantAndReferencesMapToIDs() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("store.json")
        try seed(url)
        let context = try context(url)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? NSAtomicStore)
        let nodes = store.cacheNodes()
        #expect(nodes.count == 4)
        let book = try #require(nodes.first { $0.value(forKey: "title") as? String == "Alpha" })
        #expect(book.value(forKey: "pages") as? Int == 120 || book.value(forKey: "pages") as? Int32 == 120)
        let author = try #require(book.value(forKey: "author") as? NSAtomicStoreCacheNode, "a to-one is the destination's node")
        #expect(author.value(forKey: "name") as? String == "Ann")
        #expect((author.value(forKey: "books") as? Set<NSAtomicStoreCacheNode>)?.contains(book) == true, "a to-many is a set of nodes")
        let reference = store.referenceObject(for: book.objectID)
        #expect(store.objectID(for: book.objectID.entity, withReferenceObject: reference) == book.objectID)
        #expect(store.cacheNode(for: book.objectID) === book)
        book.setValue(nil, forKey: "pages")
        #expect(book.value(forKey: "pages") == nil && book.propertyCache?["pages"] == nil)
        let empty = NSAtomicStoreCacheNode(objectID: book.objectID)
        #expect(empty.propertyCache == nil)
        empty.setValue("x", forKey: "title")
        #expect(empty.propertyCache?["title"] as? String == "x")
    }

    @Test func setURLMovesWhereTheNextSaveWrites() throws {
        let directory = try TemporaryDirectory.make()
        let url = directory.appendingPathComponent("first.json"), moved = directory.appendingPathComponent("elsewhere/second.json")
        try seed(url)
        let context = try context(url)
        let coordinator = try #require(context.persistentStoreCoordinator)
        #expect(coordinator.setURL(moved, for: coordinator.persistentStores[0]))
        let before = try Data(contentsOf: url)
        try context.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue("Bea", forKey: "name")
            try context.save()
        }
        #expect(try Data(contentsOf: url) == before, "the old file stays as it was")
        let reloaded = try self.context(moved)
        let count = try reloaded.performAndWait { try reloaded.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) }
        #expect(count == 2, "the new file holds every object, the ones loaded from the old file too")
    }

    @Test func metadataHoldsTheTypeTheUUIDAndTheModelsHashes() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("store.json")
        try seed(url)
        let context = try context(url)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        #expect(store.metadata[NSStoreTypeKey] as? String == "JSONTest")
        let uuid = try #require(store.metadata[NSStoreUUIDKey] as? String)
        #expect(store.identifier == uuid, "the file's UUID names the store")
        #expect((store.metadata[NSStoreModelVersionHashesKey] as? [String: Data]) == Self.model().entityVersionHashesByName)
        // The same file under a model whose Book differs is refused, naming the version hashes.
        let changed = Self.model(isbn: true)
        let error = try #require(throws: CoreDataError.self) { _ = try self.context(url, model: changed) }
        #expect(error.code == .persistentStoreIncompatibleVersionHash && error.message.contains("version hashes"))
    }

    @Test(arguments: [
        ("BareAtomic", "BareAtomicStore does not override NSAtomicStore.load()"),
        ("LoadOnlyAtomic", "LoadOnlyAtomicStore does not override NSAtomicStore.newReferenceObject(for:)"),
        ("NoCacheNodeAtomic", "NoCacheNodeAtomicStore does not override NSAtomicStore.newCacheNode(for:)"),
        ("NoSaveAtomic", "NoSaveAtomicStore does not override NSAtomicStore.save()"),
    ])
    func aMissingOverrideIsAnErrorNamingTheClassAndTheMethod(type: String, message: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("store.custom")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        do {
            try coordinator.addPersistentStore(ofType: type, at: url)
        } catch let error as CoreDataError {
            #expect(error.message.contains(message), "\(error.message)")
            return
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue("Ann", forKey: "name")
            let error = try #require(throws: CoreDataError.self) { try context.save() }
            #expect(error.message.contains(message), "\(error.message)")
            #expect(context.hasChanges, "the context keeps its changes")
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 1, "only the unsaved object")
            let stored = NSFetchRequest<NSManagedObject>(entityName: "Author")
            stored.includesPendingChanges = false
            #expect(try context.count(for: stored) == 0, "the store holds nothing")
        }
    }

    @Test func duplicateReferencesWrongValueTypesAndMissingObjectsAreClearErrors() throws {
        let directory = try TemporaryDirectory.make()
        func write(_ objects: [[String: Any]]) throws -> URL {
            let url = directory.appendingPathComponent("\(UUID().uuidString).json")
            try JSONSerialization.data(withJSONObject: ["metadata": [String: Any](), "objects": objects]).write(to: url)
            return url
        }
        let duplicate = try write([["entity": "Book", "ref": "b1", "values": ["title": "One"]],
                                   ["entity": "Book", "ref": "b1", "values": ["title": "Two"]]])
        let duplicateError = try #require(throws: CoreDataError.self) { _ = try self.context(duplicate) }
        #expect(duplicateError.message.contains("reference object b1 of Book is used twice"), "\(duplicateError.message)")
        #expect(duplicateError.message.contains(duplicate.path))

        let wrongType = try write([["entity": "Book", "ref": "b1", "values": ["title": "One", "pages": "many"]]])
        let context = try self.context(wrongType)
        try context.performAndWait {
            let error = try #require(throws: CoreDataError.self) { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")) }
            #expect(error.message.contains("pages holds a String (many), which is not a Integer 32 value"), "\(error.message)")
            #expect(error.message.contains("/Book/p1"))
        }
        let missing = try write([["entity": "Book", "ref": "b1", "toOne": ["author": "nobody"]]])
        let missingError = try #require(throws: CoreDataError.self) { _ = try self.context(missing) }
        #expect(missingError.message.contains("refers to nobody, which is not in the file"))
    }

    @Test func aSaveWhoseFileCannotBeWrittenLeavesTheNodesAndTheFileAsTheyWere() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("store.json")
        try seed(url)
        let before = try Data(contentsOf: url)
        let context = try context(url)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [Predicates.NSSortDescriptor(key: "title", ascending: true)]
        let error: CoreDataError? = try context.performAndWait {
            let books = try context.fetch(request)
            books[0].setValue("Changed", forKey: "title")
            context.delete(books[1])
            let added = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            added.setValue("New", forKey: "title")
            JSONTestStore.failNextSave = true
            do {
                try context.save()
                return nil
            } catch let error as CoreDataError {
                return error
            }
        }
        let failure = try #require(error)
        #expect(failure.code == .persistentStoreSave && failure.message.contains(url.path), "\(failure.message)")
        #expect(try Data(contentsOf: url) == before, "the file is untouched")
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = context.persistentStoreCoordinator
        let seen = try other.performAndWait { try other.fetch(request).map { $0.value(forKey: "title") as? String } }
        #expect(seen == ["Alpha", "Beta", "Gamma"], "the store's nodes are as they were")
        // The same changes save once the file can be written.
        try context.performAndWait { try context.save() }
        #expect(try Data(contentsOf: url) != before)
        let reloaded = try self.context(url)
        let titles = try reloaded.performAndWait { try reloaded.fetch(request).map { $0.value(forKey: "title") as? String } }
        #expect(titles == ["Changed", "Gamma", "New"])
    }
}
