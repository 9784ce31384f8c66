import AtomicStoreFormats
import CoreDataModel
import CoreDataTestSupport
import Foundation
import PropertyListCoding

/// The suite's seeded generator, so every random test reproduces.
typealias SeededGenerator = SeededRandom

/// Random, valid contents over `TestModels.everyType()`: every attribute type (some nil), to-ones, to-manys and
/// ordered to-manys kept consistent with their inverses, objects of every concrete entity.
enum RandomContents {
    static func make(model: NSManagedObjectModel, count: Int, storeType: String, seed: UInt64) -> StoreFileContents {
        var random = SeededGenerator(seed: seed)
        let entities = ["Note", "Task", "Folder"].map { model.entitiesByName[$0]! }
        var references = Array(1...Int64(count * 3)).shuffled(using: &random).prefix(count).sorted()
        if references.isEmpty { references = [] }
        var objects = references.map { reference in
            StoreFileObject(entity: entities.randomElement(using: &random)!, reference: reference)
        }
        for index in objects.indices {
            for case let attribute as NSAttributeDescription in objects[index].entity.allProperties where !attribute.isTransient {
                guard Int.random(in: 0..<5, using: &random) > 0 else { continue }
                objects[index].attributes[attribute.name] = value(for: attribute.attributeType, using: &random)
            }
        }
        let folders = objects.indices.filter { objects[$0].entity.entityName == "Folder" }
        let items = objects.indices.filter { objects[$0].entity.entityName != "Folder" }
        let tasks = objects.indices.filter { objects[$0].entity.entityName == "Task" }
        // folder ↔ items: each item in at most one folder.
        for item in items where !folders.isEmpty && Bool.random(using: &random) {
            let folder = folders.randomElement(using: &random)!
            objects[item].relationships["folder"] = [objects[folder].reference]
            objects[folder].relationships["items", default: []].append(objects[item].reference)
        }
        // parent ↔ steps (ordered): a task's parent comes before it, so there are no cycles.
        for (position, task) in tasks.enumerated() where position > 0 && Bool.random(using: &random) {
            let parent = tasks[Int.random(in: 0..<position, using: &random)]
            objects[task].relationships["parent"] = [objects[parent].reference]
            objects[parent].relationships["steps", default: []].append(objects[task].reference)
        }
        for index in objects.indices {
            if var steps = objects[index].relationships["steps"] {
                steps.shuffle(using: &random)
                objects[index].relationships["steps"] = steps
            }
        }
        let metadata: [String: PropertyListValue] = [
            StoreMetadataKey.storeType: .string(storeType),
            StoreMetadataKey.storeUUID: .string(UUID(uuid: randomUUIDBytes(&random)).uuidString),
            StoreMetadataKey.modelVersionHashes: .dictionary(model.entityVersionHashesByName.mapValues { .data($0) }),
            "NSStoreModelVersionHashesVersion": .integer(3),
            "NSStoreModelVersionIdentifiers": .array([.string("")]),
            "NSPersistenceFrameworkVersion": .integer(1344),
            "appKey <&>": .string("app value \u{E9}"),
        ]
        let mark = (references.last ?? 0) + Int64.random(in: 0...5, using: &random)
        return StoreFileContents(metadata: metadata, referenceHighWaterMark: mark, objects: objects)
    }

    static func value(for type: NSAttributeType, using random: inout SeededGenerator) -> AttributeValue {
        switch type {
        case .integer16AttributeType: return .integer(Int64(Int16.random(in: .min ... .max, using: &random)))
        case .integer32AttributeType: return .integer(Int64(Int32.random(in: .min ... .max, using: &random)))
        case .integer64AttributeType: return .integer(Int64.random(in: .min ... .max, using: &random))
        case .decimalAttributeType:
            let digits = String(UInt64.random(in: 0 ... .max, using: &random))
            return .decimal(Decimal(string: (Bool.random(using: &random) ? "-" : "") + digits + "e"
                                    + String(Int.random(in: -20...20, using: &random)))!)
        case .doubleAttributeType:
            return .double([Double.random(in: -1e300...1e300, using: &random), Double.random(in: -1...1, using: &random),
                            0, .infinity, 1e-300].randomElement(using: &random)!)
        case .floatAttributeType: return .float(Float.random(in: -1e30...1e30, using: &random))
        case .stringAttributeType:
            let pieces = ["a", "Z", " ", "é", "日本", "👩‍👩‍👧", "<", "&amp;", "\"", "'", "\n", "\t", "\r", "\r\n", ">", "]]>", ""]
            return .string((0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        case .booleanAttributeType: return .boolean(Bool.random(using: &random))
        case .dateAttributeType:
            return .date(Date(timeIntervalSinceReferenceDate: [Double.random(in: -1e9...1e9, using: &random),
                                                               Double(Int.random(in: -1_000_000...1_000_000, using: &random)),
                                                               0.000123, 445_103_622.25].randomElement(using: &random)!))
        case .binaryDataAttributeType, .transformableAttributeType:
            return .data(Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        case .UUIDAttributeType: return .uuid(UUID(uuid: randomUUIDBytes(&random)))
        case .URIAttributeType:
            return .uri(URL(string: "x-coredata://\(UInt32.random(in: 0 ... .max, using: &random))/Note/p\(Int.random(in: 1...99, using: &random))?a=b&c=%20")!)
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            fatalError("not a stored type")
        }
    }

    static func randomUUIDBytes(_ random: inout SeededGenerator) -> uuid_t {
        let b = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        return (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }
}
