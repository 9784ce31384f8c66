import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Models we archive read back as the same models: hashes, structure, defaults, validation, derivations.
struct ModelCacheWritingTests {
    private func roundTrip(_ model: NSManagedObjectModel) throws -> NSManagedObjectModel {
        let archived = try CompiledModelWriter.archive(model)
        let cache = try ModelCache.deflate([UInt8](archived))
        return try ModelCache.model(fromCache: cache, file: "round trip")
    }

    private func describe(_ model: NSManagedObjectModel) -> [String] {
        model.entities.sorted { $0.entityName < $1.entityName }.flatMap { entity in
            ["\(entity.entityName) < \(entity.superentity?.entityName ?? "-") abstract=\(entity.isAbstract) unique=\(entity.uniquenessConstraintNames) indexes=\(entity.indexes.map(\.name))"]
                + entity.ownProperties.sorted { $0.name < $1.name }.map { property in
                    switch property {
                    case let attribute as NSAttributeDescription:
                        return "  \(attribute.name): \(attribute.attributeType.xcodeName) optional=\(attribute.isOptional) default=\(attribute.attributeDefault.map { "\($0)" } ?? "-") min=\(attribute.minimumValueString ?? "-") max=\(attribute.maximumValueString ?? "-") regex=\(attribute.regularExpressionString ?? "-") derived=\((attribute as? NSDerivedAttributeDescription)?.derivationExpressionFormat ?? "-")"
                    case let relationship as NSRelationshipDescription:
                        return "  \(relationship.name) -> \(relationship.destinationEntityName) inverse=\(relationship.inverseRelationshipName ?? "-") \(relationship.minCount)...\(relationship.maxCount) ordered=\(relationship.isOrdered) rule=\(relationship.deleteRule)"
                    default:
                        return "  \(property.name): \(type(of: property))"
                    }
                }
        }
    }

    @Test func ourSampleModelRoundTrips() throws {
        let model = try ModelLoader.loadModel(at: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld"))
        let back = try roundTrip(model)
        #expect(back.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(describe(back) == describe(model))
        #expect(back.configurations == model.configurations && back.versionIdentifierStrings == model.versionIdentifierStrings)
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"), arguments: Fixtures.allStores())
    func appleCachesRoundTripThroughOurWriter(relativePath: String) throws {
        let store = try SQLiteStoreFile(path: try Fixtures.copy(relativePath).path)
        guard let model = try store.cachedModel() else { return }
        let back = try roundTrip(model)
        #expect(back.entityVersionHashesByName == store.metadata.versionHashes)
        #expect(describe(back) == describe(model))
    }

    @Test func createdStoresCarryTheirModel() throws {
        let model = try ModelLoader.loadModel(at: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld"))
        let url = try TemporaryDirectory.make().appendingPathComponent("Recipes.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let cached = try #require(try SQLiteStoreFile(path: url.path).cachedModel())
        #expect(cached.entityVersionHashesByName == model.entityVersionHashesByName)
    }
}

@Suite("Created stores against Apple's", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
struct CreatedStoreSchemaTests {
    /// A store created from a fixture's model has the schema Apple wrote for that model, statement by statement.
    @Test(arguments: [
        ("stores/contentful-manytomany-ordered/Test.xcdatamodeld", "Test", "stores/contentful-manytomany-ordered/Test.sqlite"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "SampleModel",
         "stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite"),
        ("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld", "SampleModel3", "stores/coredataplus-simple-ios17/SampleModel3_V1.sqlite"),
        ("stores/apple-recipes-ios11/Recipes.xcdatamodeld", "Recipes", "stores/apple-recipes-ios11/Recipes.sqlite"),
    ])
    func createdSchemaEqualsApples(model path: String, version: String, store: String) throws {
        let model = try #require(try ModelLoader.loadVersions(at: try Fixtures.copy(path)).model(named: version))
        let url = try TemporaryDirectory.make().appendingPathComponent("Created.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let ours = try Connection(path: url.path, mode: .readOnly)
        let apple = try Connection(path: try Fixtures.copy(store).path, mode: .readOnly)
        #expect(try ours.schemaStatements() == apple.schemaStatements())
        #expect(try ours.pageSize() == 4096 && ours.autoVacuum() == .incremental)
        #expect(try ours.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY") == apple.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY"))
        let ourMetadata = try SQLiteStoreFile(path: url.path).metadata, appleMetadata = try SQLiteStoreFile(path: try Fixtures.copy(store).path).metadata
        // The Recipes XML is a slightly later revision than the model that wrote the store (its SOURCE.txt says so):
        // same tables, different hashes.
        guard !store.contains("apple-recipes") else { return }
        #expect(ourMetadata.versionHashes == appleMetadata.versionHashes)
        if let digest = appleMetadata.versionHashesDigest { #expect(ourMetadata.versionHashesDigest == digest) }
    }
}
