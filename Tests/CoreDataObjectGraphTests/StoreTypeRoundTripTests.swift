import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// Issue 18's acceptance round trip: every sample store of the repository and every Apple SQLite fixture goes
/// SQLite → XML → binary → in-memory → SQLite through `migratePersistentStore`, and a dump of every object, value,
/// relationship (with order) and the app's metadata is the same at each step.
struct StoreTypeRoundTripTests {
    static let samples = ["Recipes", "Photos", "Earthquakes", "Library"]

    /// Metadata keys that describe the file and the model rather than the app: each store writes its own.
    static let storeKeys: Set<String> = [
        "NSStoreType", "NSStoreUUID", "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
        "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey", "_NSAutoVacuumLevel",
    ]

    /// Everything a reader can see, as lines: each object as `Entity#n` (its place among its entity's objects in key
    /// order, which every store keeps), its stored attribute values (derived ones are computed by SQLite only), its
    /// relationships by those labels (in order when ordered), then the app's metadata.
    static func dump(_ coordinator: NSPersistentStoreCoordinator, store: NSPersistentStore) throws -> [String] {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let entities = coordinator.managedObjectModel.entities.filter { !$0.isAbstract }.sorted { $0.entityName < $1.entityName }
        return try context.performAndWait {
            var objectsByEntity: [String: [NSManagedObject]] = [:]
            var labels: [NSManagedObjectID: String] = [:]
            for entity in entities {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
                request.includesSubentities = false
                request.returnsObjectsAsFaults = false
                let objects = try context.fetch(request).sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
                objectsByEntity[entity.entityName] = objects
                for (index, object) in objects.enumerated() { labels[object.objectID] = "\(entity.entityName)#\(index + 1)" }
            }
            var lines: [String] = []
            for entity in entities {
                let attributes = entity.attributesByName.values
                    .filter { !$0.isTransient && !($0 is NSDerivedAttributeDescription) }.map(\.name).sorted()
                let relationships = entity.relationshipsByName.values.filter { !$0.isTransient }.sorted { $0.name < $1.name }
                for object in objectsByEntity[entity.entityName] ?? [] {
                    var fields = [labels[object.objectID]!]
                    for name in attributes { fields.append("\(name)=\(text(of: object, name))") }
                    for relationship in relationships {
                        let name = relationship.name
                        if !relationship.isToMany {
                            fields.append("\(name)->\((object.value(forKey: name) as? NSManagedObject).map { labels[$0.objectID] ?? "?" } ?? "nil")")
                        } else if relationship.isOrdered {
                            let targets = object.mutableOrderedSetValue(forKey: name).allObjects.map { labels[$0.objectID] ?? "?" }
                            fields.append("\(name)->[\(targets.joined(separator: ","))]")
                        } else {
                            let targets = object.mutableSetValue(forKey: name).allObjects.map { labels[$0.objectID] ?? "?" }.sorted()
                            fields.append("\(name)->{\(targets.joined(separator: ","))}")
                        }
                    }
                    lines.append(fields.joined(separator: " "))
                }
            }
            for (key, value) in coordinator.metadata(for: store).sorted(by: { $0.key < $1.key }) where !storeKeys.contains(key) {
                lines.append("metadata \(key)=\(canonical(value))")
            }
            return lines
        }
    }

    private static func text(of object: NSManagedObject, _ name: String) -> String {
        let attribute = object.entity.attributesByName[name]
        switch object.attributeValue(forKey: name) {
        case .data(let data)? where attribute?.attributeType == .transformableAttributeType:
            // The binary store keeps a keyed archive's objects inline and archives them again when read (docs/DEVIATIONS.md):
            // the value is the archived object graph, not its bytes.
            guard let archive = try? KeyedArchive(data: data), let root = try? archive.topValue() else {
                return "data(\(data.base64EncodedString()))"
            }
            return "archive(\(canonical(root, in: archive, depth: 0)))"
        case .date(let date)?: return "date(\(date.timeIntervalSinceReferenceDate))"
        case .data(let data)?: return "data(\(data.base64EncodedString()))"
        case let value?: return "\(value)"
        case nil:
            // Data kept outside the SQLite file reads as the bytes.
            if let data = object.propertyValue(forKey: name) as? Data { return "data(\(data.base64EncodedString()))" }
            return object.propertyValue(forKey: name) == nil ? "nil" : "unreadable"
        }
    }

    /// An archived value as text: objects by class and fields in key order, followed to a bounded depth.
    private static func canonical(_ value: ArchivedValue, in archive: KeyedArchive, depth: Int) -> String {
        switch value {
        case .object(let reference):
            guard depth < 16, let object = try? archive.object(reference) else { return "…" }
            let fields = object.keys.map { key in
                "\(key):" + ((try? object.value(forKey: key)).flatMap { $0 }.map { canonical($0, in: archive, depth: depth + 1) } ?? "?")
            }
            return "\(object.className){\(fields.joined(separator: ","))}"
        case .array(let values): return "[" + values.map { canonical($0, in: archive, depth: depth + 1) }.joined(separator: ",") + "]"
        case .dictionary(let values):
            return "{" + values.sorted { $0.key < $1.key }.map { "\($0.key):\(canonical($0.value, in: archive, depth: depth + 1))" }
                .joined(separator: ",") + "}"
        case .data(let data): return "data(\(data.base64EncodedString()))"
        default: return "\(value)"
        }
    }

    /// A metadata value with dictionaries in key order.
    private static func canonical(_ value: Any) -> String {
        switch value {
        case let dictionary as [String: Any]:
            return "{" + dictionary.sorted { $0.key < $1.key }.map { "\($0.key):\(canonical($0.value))" }.joined(separator: ",") + "}"
        case let array as [Any]: return "[" + array.map(canonical).joined(separator: ",") + "]"
        case let data as Data: return "data(\(data.base64EncodedString()))"
        case let number as Int: return "\(number)"
        case let number as Int64: return "\(number)"
        default: return "\(value)"
        }
    }

    /// Runs the round trip on the SQLite store at `url` (a copy), checking the dump at every step.
    static func roundTrip(_ url: URL, model: NSManagedObjectModel, options: [String: Any] = [:]) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        var store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: options)
        var metadata = coordinator.metadata(for: store)
        metadata["RoundTripNote"] = "kept by every store type"
        metadata["RoundTripNumbers"] = [1, 2, 3]
        coordinator.setMetadata(metadata, for: store)
        let expected = try dump(coordinator, store: store)
        // (contentful-manytomany-ordered holds no objects: its round trip carries the metadata and the empty entities.)
        #expect(expected.contains("metadata RoundTripNote=kept by every store type"), "\(url.lastPathComponent)")
        let directory = try TemporaryDirectory.make(prefix: "round-trip")
        let steps: [(String, String)] = [(NSXMLStoreType, "store.xml"), (NSBinaryStoreType, "store.binary"),
                                         (NSInMemoryStoreType, "memory"), (NSSQLiteStoreType, "back.sqlite")]
        for (type, name) in steps {
            let destination = directory.appendingPathComponent(name)
            store = try coordinator.migratePersistentStore(store, to: destination, options: options, withType: type)
            #expect(store.type == type)
            // Compared through the first difference, so a failure prints one line rather than both dumps.
            let difference = firstDifference(try dump(coordinator, store: store), expected)
            #expect(difference == "none", "\(url.lastPathComponent) as \(type)")
            if type != NSInMemoryStoreType {
                // The file alone, opened by a new coordinator, holds the same.
                let fresh = NSPersistentStoreCoordinator(managedObjectModel: model)
                let reopened = try fresh.addPersistentStore(ofType: type, at: destination, options: options)
                let again = firstDifference(try dump(fresh, store: reopened), expected)
                #expect(again == "none", "\(url.lastPathComponent) reopened as \(type)")
            }
        }
    }

    private static func firstDifference(_ found: [String], _ expected: [String]) -> String {
        for (index, (a, b)) in zip(found, expected).enumerated() where a != b {
            // The first differing field of the first differing line.
            let (left, right) = (a.split(separator: " "), b.split(separator: " "))
            let field = zip(left, right).first { $0 != $1 }.map { "\($0.0.prefix(300)) ≠ \($0.1.prefix(300))" } ?? "\(left.count) fields, expected \(right.count)"
            return "line \(index) (\(b.prefix(40))…): \(field)"
        }
        return found.count == expected.count ? "none" : "\(found.count) lines, expected \(expected.count)"
    }

    @Test(arguments: samples)
    func everySampleStoreSurvivesEveryStoreType(sample: String) throws {
        let source = Fixtures.projectRoot.appendingPathComponent("SampleStores/\(sample)")
        let directory = try TemporaryDirectory.make(prefix: "sample")
        let url = directory.appendingPathComponent("\(sample).sqlite")
        try FileManager.default.copyItem(at: source.appendingPathComponent("\(sample).sqlite"), to: url)
        let external = source.appendingPathComponent(".\(sample)_SUPPORT")
        if FileManager.default.fileExists(atPath: external.path) {
            try FileManager.default.copyItem(at: external, to: directory.appendingPathComponent(".\(sample)_SUPPORT"))
        }
        let model = try ModelLoader.loadModel(at: source.appendingPathComponent("\(sample).xcdatamodeld"))
        try Self.roundTrip(url, model: model)
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"), arguments: Fixtures.allStores())
    func everyAppleFixtureSurvivesEveryStoreType(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        if let model = try SQLiteStoreFile(path: copy.path).cachedModel() {
            try Self.roundTrip(copy, model: model)
        } else {
            // CoreDataBooks (iOS 4) has no model cache; its Xcode 3 model carries one attribute the store's hashes lack.
            let elements = try Fixtures.copy(relativePath.replacingOccurrences(of: ".sqlite", with: ".xcdatamodel.elements"))
            try Self.roundTrip(copy, model: try ModelLoader.loadModel(at: elements), options: [NSIgnorePersistentStoreVersioningOption: true])
        }
    }

    /// The four mapping models of objc.io's Moody app are XML stores Xcode wrote: each opens as an XML store, with a
    /// model inferred from the file, and holds as many objects of each entity as the file has `<object>` elements.
    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func theMoodyMappingModelsOpenAsXMLStores() throws {
        let folder = try Fixtures.copy("models/objcio-moody-migrations")
        let files = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix("xcmapping.xml") }.sorted()
        #expect(files.count == 4, "\(files)")
        for file in files {
            let url = folder.appendingPathComponent(file)
            let data = try Data(contentsOf: url)
            let model = try NSXMLStore.inferredModel(at: url)
            let text = String(decoding: data, as: UTF8.self)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            let store = try coordinator.addPersistentStore(ofType: NSXMLStoreType, at: url,
                                                           options: [NSReadOnlyPersistentStoreOption: true, NSIgnorePersistentStoreVersioningOption: true])
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            var total = 0
            for entity in model.entities {
                let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity.entityName)) }
                // The file upper-cases the names; the model spells them as the metadata's version hashes do.
                #expect(store.metadata[NSStoreModelVersionHashesKey].flatMap { ($0 as? [String: Any])?[entity.entityName] } != nil, "\(entity.entityName)")
                let inFile = text.components(separatedBy: "<object type=\"\(entity.entityName.uppercased())\"").count - 1
                #expect(count == inFile, "\(file): \(entity.entityName)")
                total += count
            }
            #expect(total == text.components(separatedBy: "<object ").count - 1, "\(file)")
            #expect(total > 0)
            #expect(store.metadata[NSStoreTypeKey] as? String == NSXMLStoreType)
        }
    }
}
