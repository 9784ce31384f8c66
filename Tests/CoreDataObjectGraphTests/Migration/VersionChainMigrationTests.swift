import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import XCTest

/// Every multi-version model of the fixtures: a store written at the first version with two objects of every
/// concrete entity (every attribute and to-one relationship set) steps through each version by inference. After
/// each step every object keeps its key, every copied attribute its value and every to-one its target; new
/// attributes hold their default.
final class VersionChainMigrationTests: XCTestCase {
    private typealias Support = MigrationTestSupport

    static let models = [
        "models/objcio-moody-migrations/Moody.xcdatamodeld",
        "stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld",
        "stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld",
        "models/coredataplus-compiled-momd/SampleModel.momd",
        "models/coredataplus-compiled-momd/SampleModel3.momd",
    ]

    override func setUpWithError() throws {
        try XCTSkipUnless(Fixtures.isAvailable, Fixtures.absenceMessage)
    }

    func testEveryVersionStepOfEveryMultiVersionFixtureModel() throws {
        for path in Self.models {
            let versions = try ModelLoader.loadVersions(at: try Fixtures.copy(path))
            XCTAssertGreaterThan(versions.versions.count, 1, path)
            let url = try Support.storeURL()
            try Support.makeStore(at: url, model: versions.versions[0].model) { try fill($0, model: versions.versions[0].model) }
            var objects = 0
            for step in 1..<versions.versions.count {
                let (from, to) = (versions.versions[step - 1], versions.versions[step])
                let label = "\(path): \(from.name) → \(to.name)"
                let before = try dump(url, model: from.model)
                let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: from.model, destinationModel: to.model)
                try SQLiteStoreMigrator.migrate(storeAt: url.path, sourceModel: from.model, destinationModel: to.model, mapping: mapping)
                let after = try dump(url, model: to.model)
                objects += try compare(before, after, mapping: mapping, destination: to.model, label: label)
                let file = try SQLiteStoreFile(path: url.path)
                XCTAssertEqual(file.metadata.versionHashes, to.model.entityVersionHashesByName, label)
                XCTAssertEqual(try file.connection.scalar("PRAGMA integrity_check")?.stringValue, "ok", label)
            }
            XCTAssertGreaterThan(objects, 0, "\(path): objects were carried and checked")
        }
    }

    private var counter = 0

    private func fill(_ context: NSManagedObjectContext, model: NSManagedObjectModel) throws {
        var inserted: [String: [NSManagedObject]] = [:]
        for entity in model.entities.sorted(by: { $0.entityName < $1.entityName }) where !entity.isAbstract {
            for _ in 0..<2 {
                counter += 1
                let object = NSEntityDescription.insertNewObject(forEntityName: entity.entityName, into: context)
                for (name, attribute) in entity.attributesByName where !attribute.isTransient && !(attribute is NSDerivedAttributeDescription) {
                    if let value = sample(attribute.attributeType, counter) { object.setValue(value, forKey: name) }
                }
                inserted[entity.entityName, default: []].append(object)
            }
        }
        for objects in inserted.values {
            for object in objects {
                for (name, relationship) in object.entity.relationshipsByName where !relationship.isToMany && !relationship.isTransient {
                    let candidates = inserted.values.flatMap { $0 }.filter { relationship.destinationEntity.map($0.entity.isKind(of:)) ?? false }
                    // Each target once, so one-to-one inverses never steal each other's links.
                    if let target = candidates.first(where: { $0.value(forKey: relationship.inverseRelationshipName ?? "") == nil
                        || relationship.inverseRelationship?.isToMany == true }) {
                        object.setValue(target, forKey: name)
                    }
                }
            }
        }
    }

    private func sample(_ type: NSAttributeType, _ n: Int) -> Any? {
        switch type {
        case .integer16AttributeType: return Int16(n)
        case .integer32AttributeType: return Int32(n)
        case .integer64AttributeType: return Int64(n)
        case .booleanAttributeType: return n % 2 == 0
        case .doubleAttributeType: return Double(n) + 0.5
        case .floatAttributeType: return Float(n) + 0.25
        case .decimalAttributeType: return Decimal(n)
        case .stringAttributeType: return "s\(n)"
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: Double(n) * 1000)
        case .binaryDataAttributeType: return Data([UInt8(n % 256), 1, 2])
        case .UUIDAttributeType: return UUID()
        case .URIAttributeType: return URL(string: "https://example.com/\(n)")
        default: return nil
        }
    }

    /// "Entity/pN" → property → value text (to-ones as "Entity/pN" of the target).
    private func dump(_ url: URL, model: NSManagedObjectModel) throws -> [String: [String: String]] {
        let context = try Support.open(url, model: model, options: [:])
        return try context.performAndWait {
            var result: [String: [String: String]] = [:]
            for entity in model.entities where !entity.isAbstract {
                for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity.entityName)) where object.entity === entity {
                    var values: [String: String] = [:]
                    for (name, attribute) in entity.attributesByName where !attribute.isTransient {
                        values[name] = object.value(forKey: name).map { "\($0)" } ?? "nil"
                    }
                    for (name, relationship) in entity.relationshipsByName where !relationship.isToMany && !relationship.isTransient {
                        values[name] = (object.value(forKey: name) as? NSManagedObject).map(key) ?? "nil"
                    }
                    result[key(object)] = values
                }
            }
            return result
        }
    }

    private func key(_ object: NSManagedObject) -> String {
        "\(object.entity.entityName)/\(object.objectID.uriRepresentation().lastPathComponent)"
    }

    private func compare(_ before: [String: [String: String]], _ after: [String: [String: String]], mapping: NSMappingModel,
                         destination: NSManagedObjectModel, label: String) throws -> Int {
        let renamed = Dictionary(mapping.entityMappings.compactMap { mapping -> (String, String)? in
            guard let from = mapping.sourceEntityName, let to = mapping.destinationEntityName else { return nil }
            return (from, to)
        }, uniquingKeysWith: { first, _ in first })
        func translate(_ key: String) -> String? {
            guard key != "nil" else { return key }
            let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
            return renamed[parts[0]].map { "\($0)/\(parts[1])" }
        }
        var checked = 0
        for (oldKey, oldValues) in before {
            guard let newKey = translate(oldKey), let entityName = newKey.split(separator: "/").first,
                  let entityMapping = mapping.entityMapping(forDestinationEntity: String(entityName)),
                  let entity = destination.entitiesByName[String(entityName)] else { continue }
            guard let newValues = after[newKey] else {
                XCTFail("\(label): \(oldKey) did not reach the destination as \(newKey)")
                continue
            }
            checked += 1
            for (name, propertyMapping) in entityMapping.propertyMappingsByName {
                guard let value = newValues[name] else { continue }
                if let source = propertyMapping.sourcePropertyName, let old = oldValues[source] {
                    let expected = entity.relationshipsByName[name] != nil ? (translate(old) ?? "nil") : old
                    XCTAssertEqual(value, expected, "\(label): \(newKey).\(name) (from \(source))")
                } else if propertyMapping.sourcePropertyName == nil, let attribute = entity.attributesByName[name] {
                    XCTAssertEqual(value, attribute.attributeDefault.map { "\($0.anyValue)" } ?? "nil", "\(label): new \(newKey).\(name)")
                }
            }
        }
        return checked
    }
}
