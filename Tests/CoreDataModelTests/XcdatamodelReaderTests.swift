import CoreDataModel
import CoreDataTestSupport
import Foundation
import Testing

@Suite("Xcode XML models", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-model tests skipped"))
struct XcdatamodelReaderTests {
    /// XML model versions whose hashes must equal those Apple wrote into a store's metadata.
    static let modelsWithStores: [(model: String, version: String, metadata: String)] = [
        ("stores/contentful-manytomany-ordered/Test.xcdatamodeld", "Test",
         "stores/contentful-manytomany-ordered/METADATA.txt"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "SampleModel",
         "stores/coredataplus-inheritance-constraints/METADATA-SampleModel_V1.txt"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "SampleModel2",
         "stores/coredataplus-inheritance-constraints/METADATA-SampleModel_V2.txt"),
        ("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld", "SampleModel3",
         "stores/coredataplus-simple-ios17/METADATA.txt"),
    ]

    @Test("entity version hashes equal Apple's store metadata", arguments: modelsWithStores.indices)
    func versionHashesMatchApple(index: Int) throws {
        let fixture = Self.modelsWithStores[index]
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy(fixture.model))
        let model = try #require(versions.model(named: fixture.version))
        let expected = try AppleMetadataHashes.hashes(inMetadataFile: fixture.metadata)
        #expect(!expected.isEmpty)
        #expect(model.entityVersionHashesByName == expected)
    }

    @Test func inheritanceConstraintsAndTransientsAreRead() throws {
        let versions = try ModelLoader.loadVersions(
            at: try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld"))
        #expect(versions.versions.map(\.name) == ["SampleModel", "SampleModel2", "SampleModel3"])
        #expect(versions.currentVersionName == "SampleModel")
        let model = versions.currentModel
        let car = try #require(model.entitiesByName["Car"])
        let sportCar = try #require(model.entitiesByName["SportCar"])
        let expensive = try #require(model.entitiesByName["ExpensiveSportCar"])
        #expect(sportCar.superentity === car)
        #expect(expensive.superentity === sportCar)
        #expect(car.subentities.map(\.entityName) == ["SportCar"])
        #expect(expensive.rootEntity === car)
        #expect(car.uniquenessConstraintNames == [["numberPlate"]])
        #expect(expensive.propertiesByName["maker"] != nil, "inherited attribute")
        let speed = try #require(car.attributesByName["currentDrivingSpeed"])
        #expect(speed.isTransient && speed.attributeType == .integer64AttributeType)
        #expect(speed.attributeDefault == .integer(0))
        let color = try #require(car.attributesByName["color"])
        #expect(color.valueTransformerName == "ColorTransformer")
        #expect(color.attributeValueClassName == "Color")
        let owner = try #require(car.relationshipsByName["owner"])
        #expect(!owner.isToMany && owner.destinationEntity?.entityName == "Person")
        #expect(owner.inverseRelationship?.name == "cars")
        #expect(owner.inverseRelationship?.isToMany == true)
        let person = try #require(model.entitiesByName["Person"])
        #expect(person.attributesByName["id"]?.preservesValueInHistoryOnDeletion == true)
        #expect(model.versionIdentifiers == ["1"])

        let version2 = try #require(versions.model(named: "SampleModel2"))
        let luxury = try #require(version2.entitiesByName["LuxuryCar"])
        #expect(luxury.renamingIdentifier == "ExpensiveSportCar")
        let index = try #require(version2.entitiesByName["Car"]?.indexes.first)
        #expect(index.name == "byMakerAndNumberPlate")
        #expect(index.elements.map(\.propertyName) == ["maker", "numberPlate"])
    }

    @Test func orderedManyToManyIsRead() throws {
        let model = try ModelLoader.loadModel(at: try Fixtures.copy("stores/contentful-manytomany-ordered/Test.xcdatamodeld"))
        let orderedToMany = model.entities.flatMap { $0.ownProperties }
            .compactMap { $0 as? NSRelationshipDescription }
            .filter { $0.isToMany && $0.isOrdered }
        #expect(!orderedToMany.isEmpty)
        for relationship in orderedToMany {
            #expect(relationship.inverseRelationship != nil, "\(relationship.name) has its inverse linked")
        }
    }

    @Test func everyXMLModelInTheFixturesLoads() throws {
        let root = try #require(Fixtures.root)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var loaded = 0
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix("/contents") || (path.hasPrefix("models/momxml-tests/") && path.hasSuffix(".xml")) else { continue }
            let model = try ModelLoader.loadModel(at: root.appendingPathComponent(path))
            #expect(!model.entities.isEmpty, "\(path) has entities")
            for entity in model.entities {
                #expect(entity.versionHash.count == 32)
            }
            loaded += 1
        }
        #expect(loaded >= 15)
    }

    @Test func derivedAttributeAndFetchedPropertyAndCompositeAreRead() throws {
        let model = try ModelLoader.loadModel(at: try Fixtures.original("models/momxml-tests/model.xml"))
        let client = try #require(model.entitiesByName["Client"])
        let derived = try #require(client.attributesByName["commandeCount"] as? NSDerivedAttributeDescription)
        #expect(derived.derivationExpressionFormat == "count:(client_commande)")
        #expect(derived.isReadOnly)
        let modern = try ModelLoader.loadModel(
            at: try Fixtures.original("models/momxml-tests/Model.xcdatamodeld/Model.xcdatamodel/contents"))
        #expect(modern.compositesByName["Composite"]?.elements.map(\.name) == ["one", "two", "three"])
        #expect(modern.entitiesByName["Client"]?.userInfoStrings == ["key": "value", "key1": "value"])
    }
}
