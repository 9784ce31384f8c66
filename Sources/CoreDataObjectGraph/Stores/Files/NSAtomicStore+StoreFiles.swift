import AtomicStoreFormats
import CoreDataModel
import Foundation
import PropertyListCoding

/// The file formats of Apple's own atomic stores, as `NSXMLStore` and `NSBinaryStore` read and write them through the
/// `AtomicStoreFormats` codecs.
enum AtomicFileFormat {
    case xml, binary

    var name: String { self == .xml ? "XML" : "binary" }

    func decode(_ data: Data, model: NSManagedObjectModel, file: String) throws(StoreFileError) -> StoreFileContents {
        switch self {
        case .xml: try XMLStoreFormat.decode(data, model: model, file: file)
        case .binary: try BinaryStoreFormat.decode(data, model: model, file: file)
        }
    }

    func metadata(of data: Data, file: String) throws(StoreFileError) -> [String: PropertyListValue] {
        switch self {
        case .xml: try XMLStoreFormat.metadata(of: data, file: file)
        case .binary: try BinaryStoreFormat.metadata(of: data, file: file)
        }
    }

    func encode(_ contents: StoreFileContents, model: NSManagedObjectModel) throws(StoreFileError) -> Data {
        switch self {
        case .xml: try XMLStoreFormat.encode(contents, model: model)
        case .binary: try BinaryStoreFormat.encode(contents, model: model)
        }
    }

    /// The file's bytes, or an error naming it.
    static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CoreDataError(.persistentStoreOpen, "\(url.path): cannot be read (\(NSSQLiteStore.fileSystemReason(error)))",
                                underlyingError: error)
        }
    }

    /// Refuses a file at `url` whose first bytes are not a store of this format (nothing there passes).
    func checkIsStore(at url: URL, storeType: String, action: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
        let found = isDirectory.boolValue ? nil : try NSPersistentStoreCoordinator.storeType(ofFileAt: url)
        guard found == storeType else {
            throw CoreDataError(.persistentStoreOperation, "\(url.path): is not \(self == .xml ? "an XML" : "a binary") store "
                                + "(\(found.map { "its content is a \($0) store" } ?? "its content is no store")); nothing was \(action)")
        }
    }

    /// The metadata of the store file at `url`, as Apple's dictionaries hold it.
    func readMetadata(at url: URL) throws -> [String: Any] {
        let data = try Self.read(url)
        do {
            return try metadata(of: data, file: url.path).mapValues(\.foundationValue)
        } catch {
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
    }

    /// Replaces the metadata of the store file at `url` without a coordinator: the file is read with the model whose
    /// version hashes it records (one a coordinator of this process uses) and written again, atomically.
    func writeMetadata(_ metadata: [String: Any]?, at url: URL, storeType: String) throws {
        let data = try Self.read(url)
        let path = url.path
        do {
            let current = try self.metadata(of: data, file: path).mapValues(\.foundationValue)
            let hashes = (current[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
            guard let model = KnownModels.model(withVersionHashes: hashes) else {
                throw CoreDataError(.persistentStoreOperation,
                                    "\(path): the metadata of a \(name) store is rewritten with the whole file, which needs the model that "
                                        + "wrote it, and no coordinator of this program has it; add the store and use setMetadata(_:for:)")
            }
            var contents = try decode(data, model: model, file: path)
            let complete = StoreMetadataValues.completed(metadata, storeType: storeType, current: current)
            contents.metadata = try StoreMetadataValues.propertyList(complete, file: path)
            try AtomicStoreFile.write(try encode(contents, model: model), to: url)
        } catch let error as StoreFileError {
            throw CoreDataError(.persistentStoreOperation, error.description, underlyingError: error)
        }
    }
}

extension NSAtomicStore {
    /// Loads the store file at ``NSPersistentStore/url`` in `format`, or creates it (and its directory) with the
    /// model's metadata when nothing is there. The metadata is checked against the model before any node is made, and
    /// when the objects cannot be read with the model, the metadata alone is read to tell whether the store is of
    /// another model version: either way a store of another version is refused with Core Data's version-skew error
    /// (134100) rather than with what the first unknown property would say, unless the options ask for automatic
    /// migration: the file is then migrated to the model (`migrateStoreFileIfAsked`) and read again. Returns the
    /// file's reference mark, above which new objects number.
    func loadStoreFile(_ format: AtomicFileFormat) throws -> Int64 {
        guard let url else { throw CoreDataError(.persistentStoreOpen, "\(format.name) stores need a file URL") }
        guard let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError(.persistentStoreOpen, "\(url.path): the store has no coordinator")
        }
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            try createStoreFile(format, at: url, model: model)
            return 0
        }
        var data = try AtomicFileFormat.read(url)
        var contents: StoreFileContents
        do {
            // One pass over the file: the metadata comes with the objects (reading it first would parse XML twice).
            contents = try format.decode(data, model: model, file: path)
            metadata = contents.metadata.mapValues(\.foundationValue)
            if try migrateStoreFileIfAsked(format, at: url, model: model) {
                data = try AtomicFileFormat.read(url)
                contents = try format.decode(data, model: model, file: path)
                metadata = contents.metadata.mapValues(\.foundationValue)
            }
        } catch let error as StoreFileError {
            if let header = try? format.metadata(of: data, file: path) {
                metadata = header.mapValues(\.foundationValue)
                if try migrateStoreFileIfAsked(format, at: url, model: model) { return try loadStoreFile(format) }
                try checkVersionHashes(model: model, path: path)
            }
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
        try checkVersionHashes(model: model, path: path)
        registerLoadedNodes(makeNodes(for: contents.objects))
        return contents.referenceHighWaterMark
    }

    /// Refuses a store whose recorded entity hashes are not the model's (unless the options ignore versions).
    private func checkVersionHashes(model: NSManagedObjectModel, path: String) throws {
        guard let recorded = metadata[NSStoreModelVersionHashesKey] as? [String: Any],
              (storeOptions[NSIgnorePersistentStoreVersioningOption] as? Bool) != true,
              !model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata) else { return }
        let difference = ModelDifference(storeHashes: recorded.compactMapValues { $0 as? Data }, storeModel: nil, model: model,
                                         configuration: configuration)
        throw CoreDataError(
            .persistentStoreIncompatibleVersionHash,
            "\(path): the model is not the one that wrote this store: \(difference). Open it with the model version it was written "
                + "with, or migrate it (NSMigratePersistentStoresAutomaticallyOption and NSInferMappingModelAutomaticallyOption, "
                + "or coredata migrate)")
    }

    /// A new, empty store file with the store's UUID and type and the model's version hashes.
    private func createStoreFile(_ format: AtomicFileFormat, at url: URL, model: NSManagedObjectModel) throws {
        if isReadOnly {
            throw CoreDataError(.persistentStoreOpen,
                                "\(url.path): no such file; a store added read-only (NSReadOnlyPersistentStoreOption) is opened, never created")
        }
        metadata = [NSStoreUUIDKey: storeIdentifier, NSStoreTypeKey: type, NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
        do {
            try AtomicStoreFile.write(try fileData(format, model: model, referenceMark: 0), to: url)
        } catch let error as CoreDataError {
            throw CoreDataError(.persistentStoreOpen, "cannot create the store: \(error.message)", underlyingError: error)
        }
    }

    /// One node per object of the file, values and relationships set as Apple's nodes hold them. The shared work of
    /// every XML and binary load, done once per load rather than once per object where it can be: the store UUID is
    /// interned once, each entity's root is found once, reference numbers map to keys without boxing, a node's
    /// dictionary is made at its final size, and destinations are found by binary search in the sorted references.
    private func makeNodes(for objects: [StoreFileObject]) -> [NSAtomicStoreCacheNode] {
        if let uuid = metadata[NSStoreUUIDKey] as? String, !uuid.isEmpty { storeIdentifier = uuid }
        let store = InternedStoreIdentifier.intern(storeIdentifier)
        var roots: [ObjectIdentifier: NSEntityDescription] = [:]
        var perRoot: [ObjectIdentifier: Int] = [:]
        for object in objects {
            let root: NSEntityDescription
            if let known = roots[ObjectIdentifier(object.entity)] {
                root = known
            } else {
                root = object.entity.rootEntity
                roots[ObjectIdentifier(object.entity)] = root
            }
            perRoot[ObjectIdentifier(root), default: 0] += 1
        }
        table.reserveCapacity(nodes: objects.count, numberedPerRoot: perRoot)
        var nodes: [NSAtomicStoreCacheNode] = []
        nodes.reserveCapacity(objects.count)
        var references: [Int64] = []
        references.reserveCapacity(objects.count)
        var sorted = true
        for object in objects {
            let entity = object.entity
            let key = table.primaryKey(forNumber: object.reference, root: roots[ObjectIdentifier(entity)]!)
            let node = NSAtomicStoreCacheNode(objectID: NSManagedObjectID(entity: entity, store: store, primaryKey: key))
            if !object.attributes.isEmpty || !object.relationships.isEmpty {
                var cache: [String: Any] = [:]
                cache.reserveCapacity(object.attributes.count + object.relationships.count)
                for (name, value) in object.attributes { cache[name] = value.anyValue }
                node.propertyCache = cache
            }
            if let last = references.last, last >= object.reference { sorted = false }
            references.append(object.reference)
            nodes.append(node)
        }
        // The codecs give objects in reference order; anything else (a custom caller) takes a dictionary.
        let byReference: [Int64: NSAtomicStoreCacheNode] = sorted ? [:] : Dictionary(zip(references, nodes), uniquingKeysWith: { first, _ in first })
        func destinationNode(_ reference: Int64) -> NSAtomicStoreCacheNode? {
            guard sorted else { return byReference[reference] }
            var low = 0, high = references.count
            while low < high {
                let middle = (low + high) / 2
                if references[middle] < reference { low = middle + 1 } else { high = middle }
            }
            return low < references.count && references[low] == reference ? nodes[low] : nil
        }
        // The codecs checked that every destination exists, so every reference has its node now. Each entity's
        // relationships are looked up once (`relationshipsByName` builds a dictionary at every call).
        var relationshipsByEntity: [ObjectIdentifier: [String: NSRelationshipDescription]] = [:]
        for (object, node) in zip(objects, nodes) where !object.relationships.isEmpty {
            let relationships: [String: NSRelationshipDescription]
            if let known = relationshipsByEntity[ObjectIdentifier(object.entity)] {
                relationships = known
            } else {
                relationships = object.entity.relationshipsByName
                relationshipsByEntity[ObjectIdentifier(object.entity)] = relationships
            }
            for (name, destinationReferences) in object.relationships {
                guard let relationship = relationships[name] else { continue }
                if !relationship.isToMany {
                    if let destination = destinationReferences.first.flatMap(destinationNode) { node.propertyCache![name] = destination }
                } else if relationship.isOrdered {
                    node.propertyCache![name] = destinationReferences.compactMap(destinationNode)
                } else {
                    var set = Set<NSAtomicStoreCacheNode>(minimumCapacity: destinationReferences.count)
                    for reference in destinationReferences { if let destination = destinationNode(reference) { set.insert(destination) } }
                    node.propertyCache![name] = set
                }
            }
        }
        return nodes
    }

    /// Writes every registered node and the metadata to the store's file in `format`, atomically.
    func saveStoreFile(_ format: AtomicFileFormat, referenceMark: Int64) throws {
        guard let url else { throw CoreDataError(.persistentStoreSave, "\(format.name) stores need a file URL") }
        guard let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError(.persistentStoreSave, "\(url.path): the store has no coordinator")
        }
        try AtomicStoreFile.write(try fileData(format, model: model, referenceMark: referenceMark), to: url)
    }

    /// The file's bytes: the metadata and every registered node, as `StoreFileContents` encoded in `format`.
    private func fileData(_ format: AtomicFileFormat, model: NSManagedObjectModel, referenceMark: Int64) throws -> Data {
        let file = url?.path ?? "the \(type) store"
        var objects: [StoreFileObject] = []
        objects.reserveCapacity(table.count)
        for node in table.allNodes {
            objects.append(try fileObject(of: node, file: file))
        }
        objects.sort { $0.reference < $1.reference }
        let contents = StoreFileContents(metadata: try StoreMetadataValues.propertyList(metadata, file: file),
                                         referenceHighWaterMark: max(referenceMark, objects.last?.reference ?? 0), objects: objects)
        do {
            return try format.encode(contents, model: model)
        } catch {
            throw CoreDataError(.persistentStoreSave, "\(file): the store cannot be written as \(format.name): \(error)", underlyingError: error)
        }
    }

    /// A node as the codecs take it: its reference number, attribute values in their stored form, and the reference
    /// numbers of its destinations (to-many ones in order when ordered, else by primary key).
    private func fileObject(of node: NSAtomicStoreCacheNode, file: String) throws -> StoreFileObject {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(.persistentStoreSave, "\(file): the store has no coordinator")
        }
        let id = node.objectID
        var object = StoreFileObject(entity: id.entity, reference: try fileReference(of: id, file: file))
        let slots = coordinator.slots(for: id.entity)
        for (slot, property) in slots.properties.enumerated() {
            guard let attribute = slots.storedAttributes[slot], !(attribute is NSDerivedAttributeDescription) else { continue }
            let value = node.value(forKey: property.name)
            let stored: StoredValue
            do {
                stored = try StoredValue.assigning(value, to: attribute, ofType: slots.storedAttributeTypes[slot])
            } catch {
                throw CoreDataError(.persistentStoreSave, "\(file): \(id.uriRepresentation().absoluteString): \(property.name) holds "
                                    + "\(value.map { "a \(Swift.type(of: $0))" } ?? "nothing"), which is not a "
                                    + "\(attribute.attributeType.xcodeName) value", underlyingError: error)
            }
            if case .attribute(let attributeValue) = stored { object.attributes[property.name] = attributeValue }
        }
        for relationship in slots.persistentRelationships {
            let destinations: [NSManagedObjectID]
            if relationship.isToMany {
                destinations = try table.destinations(of: node, relationship: relationship)
            } else {
                switch node.value(forKey: relationship.name) {
                case let destination as NSAtomicStoreCacheNode: destinations = [destination.objectID]
                case let destination as NSManagedObjectID: destinations = [destination]
                default: destinations = []
                }
            }
            guard !destinations.isEmpty else { continue }
            object.relationships[relationship.name] = try destinations.map { try fileReference(of: $0, file: file) }
        }
        return object
    }

    /// The reference number an object has in the file: its reference object, which these stores make numbers.
    private func fileReference(of id: NSManagedObjectID, file: String) throws -> Int64 {
        let reference = referenceObject(for: id)
        switch reference {
        case let number as Int64 where number > 0: return number
        case let number as Int where number > 0: return Int64(number)
        default:
            throw CoreDataError(.persistentStoreSave, "\(file): \(id.uriRepresentation().absoluteString) has the reference object "
                                + "\(reference), where this store needs a positive number")
        }
    }
}

extension KnownModels {
    /// The model of this program whose entity version hashes are `hashes`, or nil.
    static func model(withVersionHashes hashes: [String: Data]) -> NSManagedObjectModel? {
        guard !hashes.isEmpty else { return nil }
        return allModels.first { $0.entityVersionHashesByName == hashes }
    }
}
