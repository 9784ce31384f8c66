import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// Finding a compiled mapping model (`.cdm`) as Apple's code does: `NSMappingModel(from:forSourceModel:
/// destinationModel:)` searching bundles for the one compiled between two model versions, and
/// `NSMappingModel(contentsOf:)` reading one without the models. The archives are laid out as Core Data's coding
/// keys say (as in CompiledMappingModelTests); no Apple-written `.cdm` is among the fixtures.
struct MappingModelLookupTests {
    private typealias Support = MigrationTestSupport

    /// `entity` with a `title` (version 1) or `heading` (version 2) string attribute.
    private func models(_ entity: String) throws -> (NSManagedObjectModel, NSManagedObjectModel) {
        let v1 = try Support.model("<entity name=\"\(entity)\"><attribute name=\"title\" attributeType=\"String\"/></entity>")
        let v2 = try Support.model("<entity name=\"\(entity)\"><attribute name=\"heading\" attributeType=\"String\"/></entity>")
        return (v1, v2)
    }

    /// A compiled mapping model of one entity mapping, `heading = $source.title`, carrying the entity version hashes
    /// of `source` and `destination`.
    private func compiledMapping(_ entity: String, source: NSManagedObjectModel, destination: NSManagedObjectModel) throws -> Data {
        var builder = KeyedArchiveBuilder()
        func expression(_ className: String, type: Int64, _ fields: [String: PropertyListValue]) -> ArchivedObjectReference {
            var all = fields
            all["NSExpressionType"] = .integer(type)
            return builder.addObject(className: className, classHierarchy: [className, "NSExpression", "NSObject"], fields: all)
        }
        let variable = expression("NSVariableExpression", type: 2, ["NSVariable": builder.addString("source").uid])
        let key = expression("NSKeyPathSpecifierExpression", type: 10, ["NSKeyPath": builder.addString("title").uid])
        let value = expression("NSFunctionExpression", type: 4, ["NSOperand": variable.uid, "NSSelectorName": builder.addString("valueForKeyPath:").uid,
                                                                 "NSArguments": builder.addArray([key]).uid])
        let heading = builder.addObject(className: "NSPropertyMapping", fields: ["NSDestinationPropertyName": builder.addString("heading").uid,
                                                                                  "NSValueExpression": value.uid])
        let mapping = builder.addObject(className: "NSEntityMapping", fields: [
            "NSMappingName": builder.addString("\(entity)To\(entity)").uid, "NSMappingType": .integer(5),
            "NSSourceEntityName": builder.addString(entity).uid, "NSDestinationEntityName": builder.addString(entity).uid,
            "NSSourceEntityVersionHash": try builder.addPlainValue(.data(try #require(source.entitiesByName[entity]).versionHash)).uid,
            "NSDestinationEntityVersionHash": try builder.addPlainValue(.data(try #require(destination.entitiesByName[entity]).versionHash)).uid,
            "NSAttributeMappings": builder.addArray([heading]).uid, "NSRelationshipMappings": builder.addArray([]).uid,
        ])
        builder.setTopObject(builder.addObject(className: "NSMappingModel", fields: ["NSEntityMappings": builder.addArray([mapping]).uid]))
        return try builder.binaryData()
    }

    /// A directory standing for an app's resources: a mapping compiled for other versions first (by name), a file
    /// that is no mapping model, and the one between `v1` and `v2`.
    private func resources(_ entity: String, _ v1: NSManagedObjectModel, _ v2: NSManagedObjectModel) throws -> URL {
        let directory = try TemporaryDirectory.make(prefix: "cdm-bundle")
        try compiledMapping(entity, source: v2, destination: v2).write(to: directory.appendingPathComponent("A_2To2.cdm"))
        try Data("not an archive".utf8).write(to: directory.appendingPathComponent("B_Garbage.cdm"))
        try compiledMapping(entity, source: v1, destination: v2).write(to: directory.appendingPathComponent("C_1To2.cdm"))
        return directory
    }

    private func migrate(with mapping: NSMappingModel, _ v1: NSManagedObjectModel, _ v2: NSManagedObjectModel, entity: String) throws -> [String] {
        let source = try Support.storeURL("Source.sqlite")
        try Support.makeStore(at: source, model: v1) { context in
            for title in ["one", "two"] { Support.insert(entity, ["title": title], into: context) }
        }
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        let context = try Support.open(destination, model: v2, options: [:])
        return try context.performAndWait {
            try Support.fetch(entity, in: context, sortedBy: "heading").map { $0.value(forKey: "heading") as? String ?? "?" }
        }
    }

    @Test func theMappingCompiledForTheTwoVersionsIsFoundInTheGivenBundles() throws {
        let (v1, v2) = try models("Note")
        let bundle = try #require(Bundle(url: try resources("Note", v1, v2)))
        let found = try #require(NSMappingModel(from: [bundle], forSourceModel: v1, destinationModel: v2))
        #expect(found.entityMappings.map(\.name) == ["NoteToNote"])
        #expect(found.entityMappings.first?.sourceEntityVersionHash == v1.entitiesByName["Note"]?.versionHash)
        #expect(try migrate(with: found, v1, v2, entity: "Note") == ["one", "two"])

        // Versions no mapping was compiled for, and nil models, find nothing.
        #expect(NSMappingModel(from: [bundle], forSourceModel: v2, destinationModel: v1) == nil)
        let (other, _) = try models("Memo")
        #expect(NSMappingModel(from: [bundle], forSourceModel: other, destinationModel: v2) == nil)
        #expect(NSMappingModel(from: [bundle], forSourceModel: nil, destinationModel: v2) == nil)
        #expect(NSMappingModel(from: [], forSourceModel: v1, destinationModel: v2) == nil)
    }

    /// A mapping compiled for only some of a model's entities is not the model's mapping.
    @Test func aMappingThatLeavesAnEntityOutDoesNotFit() throws {
        let (v1, v2) = try models("Note")
        let wider = try Support.model("""
            <entity name="Note"><attribute name="heading" attributeType="String"/></entity>
            <entity name="Tag"><attribute name="label" attributeType="String"/></entity>
            """)
        #expect(wider.entitiesByName["Note"]?.versionHash == v2.entitiesByName["Note"]?.versionHash)
        let bundle = try #require(Bundle(url: try resources("Note", v1, v2)))
        #expect(NSMappingModel(from: [bundle], forSourceModel: v1, destinationModel: wider) == nil)
    }

    /// With no bundles, the main bundle is searched: on Linux, the directory of the running executable.
    @Test func theMainBundleIsSearchedWhenNoBundlesAreGiven() throws {
        // Entity names of this test alone, so no other file there can match.
        let entity = "Lookup\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))"
        let (v1, v2) = try models(entity)
        let file = Bundle.main.bundleURL.appendingPathComponent("\(entity).cdm")
        try compiledMapping(entity, source: v1, destination: v2).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let found = try #require(NSMappingModel(from: nil, forSourceModel: v1, destinationModel: v2))
        #expect(found.entityMappings.map(\.name) == ["\(entity)To\(entity)"])
        #expect(try migrate(with: found, v1, v2, entity: entity) == ["one", "two"])
    }

    @Test func contentsOfReadsACompiledMappingWithoutTheModels() throws {
        let (v1, v2) = try models("Note")
        let directory = try resources("Note", v1, v2)
        let mapping = try #require(NSMappingModel(contentsOf: directory.appendingPathComponent("C_1To2.cdm")))
        let entityMapping = try #require(mapping.entityMappingsByName["NoteToNote"])
        #expect(entityMapping.mappingType == .transformEntityMappingType)
        #expect(entityMapping.destinationEntityVersionHash == v2.entitiesByName["Note"]?.versionHash)
        #expect(entityMapping.attributeMappings?.map(\.description) == ["heading = $source.title"])
        #expect(try migrate(with: mapping, v1, v2, entity: "Note") == ["one", "two"])

        #expect(NSMappingModel(contentsOf: directory.appendingPathComponent("B_Garbage.cdm")) == nil)
        #expect(NSMappingModel(contentsOf: directory.appendingPathComponent("Missing.cdm")) == nil)
        #expect(NSMappingModel(contentsOf: nil) == nil)
    }
}
