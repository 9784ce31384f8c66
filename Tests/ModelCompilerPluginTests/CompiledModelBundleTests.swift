import Foundation
import OpenCoreData
import Testing

/// The OpenCoreDataModelCompiler plugin compiles this target's `Garden.xcdatamodeld` (two versions, "Garden 2"
/// current) into `Garden.momd` among its resources. These tests load it as code on Apple's platforms does, where
/// Xcode's momc put it there.
struct CompiledModelBundleTests {
    static func momd() throws -> URL {
        try #require(Bundle.module.url(forResource: "Garden", withExtension: "momd"), "the plugin put no Garden.momd in Bundle.module")
    }

    @Test func bundleHoldsTheMomdWithEveryVersion() throws {
        let momd = try Self.momd()
        let files = try FileManager.default.contentsOfDirectory(atPath: momd.path).sorted()
        #expect(files == ["Garden 2.mom", "Garden.mom", "VersionInfo.plist"])
        let model = try #require(NSManagedObjectModel(contentsOf: momd))
        // The current version (Garden 2) has `species` and the TallPlants template.
        #expect(model.entitiesByName["Plant"]?.attributesByName["species"] != nil)
        #expect(model.fetchRequestTemplatesByName["TallPlants"]?.predicateFormat == "height > 1.5")
        let first = try #require(Bundle.module.url(forResource: "Garden", withExtension: "mom", subdirectory: "Garden.momd"))
        let firstModel = try #require(NSManagedObjectModel(contentsOf: first))
        #expect(firstModel.entitiesByName["Plant"]?.attributesByName["species"] == nil)
        #expect(firstModel.entitiesByName["Plant"]?.attributesByName["height"] != nil)
    }

    @Test func versionInfoNamesTheCurrentVersionAndEachVersionsHashes() throws {
        let momd = try Self.momd()
        let data = try Data(contentsOf: momd.appendingPathComponent("VersionInfo.plist"))
        #expect(data.starts(with: Array("bplist00".utf8)))
        let info = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(info["NSManagedObjectModel_CurrentVersionName"] as? String == "Garden 2")
        let hashes = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        #expect(hashes.keys.sorted() == ["Garden", "Garden 2"])
        for version in ["Garden", "Garden 2"] {
            let model = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("\(version).mom")))
            #expect(hashes[version] == model.entityVersionHashesByName, "\(version)")
        }
        #expect(hashes["Garden"]?["Plant"] != hashes["Garden 2"]?["Plant"])
        #expect(hashes["Garden"]?["Bed"] == hashes["Garden 2"]?["Bed"])
    }

    @Test func containerFromTheBundlesModelMigratesAStoreOfTheFirstVersion() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("garden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Garden.sqlite")
        let firstURL = try #require(Bundle.module.url(forResource: "Garden", withExtension: "mom", subdirectory: "Garden.momd"))
        let first = NSPersistentContainer(name: "Garden", managedObjectModel: try #require(NSManagedObjectModel(contentsOf: firstURL)))
        first.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
        var loadError: (any Error)?
        first.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let plant = NSEntityDescription.insertNewObject(forEntityName: "Plant", into: first.viewContext)
        plant.setValue("Fennel", forKey: "name")
        plant.setValue(1.8, forKey: "height")
        try first.viewContext.save()
        for store in first.persistentStoreCoordinator.persistentStores { try first.persistentStoreCoordinator.remove(store) }

        let current = NSPersistentContainer(name: "Garden", managedObjectModel: try #require(NSManagedObjectModel(contentsOf: try Self.momd())))
        current.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
        current.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil, "\(String(describing: loadError))")
        let request = try #require(current.managedObjectModel.fetchRequestTemplate(forName: "TallPlants"))
        let tall = try current.viewContext.fetch(request)
        #expect(tall.map { $0.value(forKey: "name") as? String } == ["Fennel"])
        #expect(tall.first?.value(forKey: "species") == nil)
    }

    /// Apple's other way to the bundle's model: every model in the bundle, merged (here the one, current version).
    @Test func mergedModelFromTheBundleIsTheCurrentVersion() throws {
        let model = try #require(NSManagedObjectModel.mergedModel(from: [Bundle.module]))
        #expect(model.entitiesByName.keys.sorted() == ["Bed", "Plant"])
        #expect(model.entitiesByName["Plant"]?.attributesByName["species"] != nil)
    }

    @Test func persistentContainerFindsTheCompiledModelByName() throws {
        let container = NSPersistentContainer(name: "Garden")
        #expect(container.managedObjectModel.entitiesByName["Plant"]?.attributesByName["species"] != nil)
        #expect(container.managedObjectModel.entitiesByName.keys.sorted() == ["Bed", "Plant"])
    }
}
