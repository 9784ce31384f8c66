import CoreDataModel
import CoreDataTestSupport
import Foundation
import Testing

@Suite("Compiled models", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: compiled-model tests skipped"))
struct CompiledModelReaderTests {
    /// `VersionInfo.plist` records, per version, the entity hashes momc computed: the .mom reader must match them.
    @Test(arguments: ["models/coredataplus-compiled-momd/SampleModel.momd", "models/coredataplus-compiled-momd/SampleModel3.momd"])
    func everyVersionMatchesVersionInfoHashes(momd: String) throws {
        let url = try Fixtures.copy(momd)
        let info = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: url.appendingPathComponent("VersionInfo.plist")), format: nil) as? [String: Any]
        let recorded = try #require(info?["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        let versions = try ModelLoader.loadVersions(at: url)
        #expect(Set(versions.versions.map(\.name)) == Set(recorded.keys))
        for (name, hashes) in recorded {
            let model = try #require(versions.model(named: name))
            #expect(model.entityVersionHashesByName == hashes, "version \(name)")
        }
        #expect(versions.currentVersionName == info?["NSManagedObjectModel_CurrentVersionName"] as? String)
    }

    @Test func compiledAndXMLModelsAgree() throws {
        let compiled = try ModelLoader.loadVersions(at: try Fixtures.copy("models/coredataplus-compiled-momd/SampleModel.momd"))
        let xml = try ModelLoader.loadVersions(
            at: try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld"))
        let fromMom = try #require(compiled.model(named: "SampleModel"))
        let fromXML = try #require(xml.model(named: "SampleModel"))
        #expect(fromMom.entityVersionHashesByName == fromXML.entityVersionHashesByName)
        let car = try #require(fromMom.entitiesByName["Car"])
        #expect(car.subentities.map(\.entityName) == ["SportCar"])
        #expect(car.uniquenessConstraintNames == [["numberPlate"]])
        #expect(car.attributesByName["color"]?.valueTransformerName == "ColorTransformer")
        #expect(car.relationshipsByName["owner"]?.inverseRelationship?.name == "cars")
        #expect(fromMom.entitiesByName["Person"]?.relationshipsByName["cars"]?.isToMany == true)
    }

    @Test func aSingleMomFileLoads() throws {
        let model = try ModelLoader.loadModel(
            at: try Fixtures.copy("models/coredataplus-compiled-momd/SampleModel3.momd/SampleModel3_v2.mom"))
        #expect(!model.entities.isEmpty)
    }

    @Test func truncatedMomIsAnError() throws {
        let original = try Data(contentsOf: try Fixtures.copy("models/coredataplus-compiled-momd/SampleModel.momd/SampleModel.mom"))
        for length in stride(from: 0, to: original.count, by: max(1, original.count / 40)) {
            let url = try TemporaryDirectory.make().appendingPathComponent("Broken.mom")
            try original.prefix(length).write(to: url)
            #expect(throws: ModelError.self) { try ModelLoader.loadModel(at: url) }
        }
    }
}
