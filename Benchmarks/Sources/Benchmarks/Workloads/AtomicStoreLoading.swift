import AtomicStoreFormats
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import OpenCoreData
import PropertyListCoding

/// Issue 18's loader figures: reading a 100,000-object XML store and binary store into model-checked contents,
/// against parsing the same bytes with the bare parser (`XMLParser` with a delegate that only counts objects; the
/// property-list reader on both archives), so the cost above parsing is visible. Target: the binary store loads at
/// least three times faster than the XML store. The files are in memory: reading them from disk costs both alike.
enum AtomicStoreLoading {
    static func workload(objects count: Int) throws -> Workload {
        let model = Self.model()
        let contents = makeContents(model: model, count: count)
        var xmlContents = contents
        xmlContents.metadata["NSStoreType"] = .string("XML")
        let xml = try XMLStoreFormat.encode(xmlContents, model: model)
        let binary = try BinaryStoreFormat.encode(contents, model: model)
        print("atomic stores: \(count) objects, XML \(xml.count / 1024) KiB, binary \(binary.count / 1024) KiB")

        let bareXML = Implementation(name: "bare XMLParser (counting <object>)", contender: .raw) { watch in
            try watch.measure {
                let counter = ObjectCounter()
                // From a stream, as the store reads: `XMLParser(data:)` fails on documents over 10 MB on Linux.
                let parser = XMLParser(stream: InputStream(data: xml))
                parser.delegate = counter
                guard parser.parse() else { throw BenchmarkFailure("XMLParser failed") }
                watch.checksum = counter.objects
            }
        }
        let bareBinary = Implementation(name: "bare plist reader (both archives)", contender: .raw) { watch in
            let header = try BinaryStoreHeader(reading: [UInt8](binary), file: "bench.binary")
            try watch.measure {
                let bytes = [UInt8](binary)
                let map = try BinaryPropertyListReader().read(Array(bytes[header.mapRange]))
                let metadata = try BinaryPropertyListReader().read(Array(bytes[header.metadataRange]))
                keep((map, metadata))
            }
        }
        let ourXML = Implementation(name: "ours · XML store decode", contender: .ours) { watch in
            let decoded = try watch.measure { try XMLStoreFormat.decode(xml, model: model, file: "bench.xml") }
            watch.checksum = decoded.objects.count
            keep(decoded)
        }
        let ourBinary = Implementation(name: "ours · binary store decode", contender: .ours) { watch in
            let decoded = try watch.measure { try BinaryStoreFormat.decode(binary, model: model, file: "bench.binary") }
            watch.checksum = decoded.objects.count
            keep(decoded)
        }
        // The store classes: the file read from disk, decoded, and one cache node per object registered, as adding the
        // store to a coordinator does (what an app pays to open it).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let xmlFile = directory.appendingPathComponent("bench.xml"), binaryFile = directory.appendingPathComponent("bench.binary")
        try xml.write(to: xmlFile)
        try binary.write(to: binaryFile)
        func storeLoad(_ name: String, _ type: String, _ url: URL) -> Implementation {
            Implementation(name: name, contender: .ours) { watch in
                let store = try watch.measure {
                    try NSPersistentStoreCoordinator(managedObjectModel: model)
                        .addPersistentStore(ofType: type, at: url, options: [NSReadOnlyPersistentStoreOption: true])
                }
                watch.checksum = (store as? NSAtomicStore)?.cacheNodes().count ?? 0
            }
        }
        let xmlStore = storeLoad("ours · NSXMLStore added (nodes)", NSXMLStoreType, xmlFile)
        let binaryStore = storeLoad("ours · NSBinaryStore added (nodes)", NSBinaryStoreType, binaryFile)
        return Workload(
            group: "atomic stores", name: "load \(count) objects (XML, binary)", rows: count,
            implementations: [bareXML, ourXML, xmlStore, bareBinary, ourBinary, binaryStore],
            targets: [Target(implementation: "ours · binary store decode", maximumRatio: 1.0 / 3.0,
                             floor: "ours · XML store decode",
                             description: "the binary store loads at least 3× faster than the XML store (issue 18)"),
                      Target(implementation: "ours · NSBinaryStore added (nodes)", maximumRatio: 1.0 / 3.0,
                             floor: "ours · NSXMLStore added (nodes)",
                             description: "through the store classes too, the binary store opens at least 3× faster than the XML store")],
            checksumsMustAgree: false)
    }

    /// `Word` (text, length, score, added, common; to-one `group`) and `Group` (name; to-many `words`).
    static func model() -> NSManagedObjectModel {
        let word = NSEntityDescription(name: "Word")
        let toGroup = NSRelationshipDescription(name: "group", destinationEntityName: "Group")
        toGroup.maxCount = 1
        toGroup.inverseRelationshipName = "words"
        word.setProperties([
            NSAttributeDescription(name: "text", type: .stringAttributeType),
            NSAttributeDescription(name: "length", type: .integer16AttributeType),
            NSAttributeDescription(name: "score", type: .doubleAttributeType),
            NSAttributeDescription(name: "added", type: .dateAttributeType),
            NSAttributeDescription(name: "common", type: .booleanAttributeType), toGroup,
        ])
        let group = NSEntityDescription(name: "Group")
        let words = NSRelationshipDescription(name: "words", destinationEntityName: "Word")
        words.inverseRelationshipName = "group"
        group.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), words])
        let model = NSManagedObjectModel(entities: [word, group])
        try? model.link()
        return model
    }

    /// Words (text, length, score, date, flag) in groups of 100, each word in one group: every object has values and
    /// a relationship, as a real store's do.
    static func makeContents(model: NSManagedObjectModel, count: Int) -> StoreFileContents {
        let word = model.entitiesByName["Word"]!, group = model.entitiesByName["Group"]!
        let groups = max(1, count / 100)
        var objects: [StoreFileObject] = []
        objects.reserveCapacity(count)
        var members: [Int64: [Int64]] = [:]
        for index in 0..<(count - groups) {
            let reference = Int64(groups + index + 1)
            let owner = Int64(index % groups + 1)
            members[owner, default: []].append(reference)
            objects.append(StoreFileObject(entity: word, reference: reference, attributes: [
                "text": .string("word\(index * 7919 % 100_003)"), "length": .integer(Int64(index % 23)),
                "score": .double(Double(index) / 7), "added": .date(Date(timeIntervalSinceReferenceDate: Double(index) * 60.5)),
                "common": .boolean(index % 3 == 0),
            ], relationships: ["group": [owner]]))
        }
        for index in 0..<groups {
            let reference = Int64(index + 1)
            objects.append(StoreFileObject(entity: group, reference: reference, attributes: ["name": .string("group \(index)")],
                                           relationships: members[reference].map { ["words": $0] } ?? [:]))
        }
        return StoreFileContents(metadata: ["NSStoreType": .string("Binary"), "NSStoreUUID": .string(UUID().uuidString)],
                                 referenceHighWaterMark: Int64(count), objects: objects)
    }
}

private final class ObjectCounter: NSObject, XMLParserDelegate {
    var objects = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if elementName == "object" { objects += 1 }
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
