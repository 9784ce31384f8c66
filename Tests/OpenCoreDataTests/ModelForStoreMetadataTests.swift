import Foundation
import OpenCoreData
import Testing

/// Finding the model a store was written with from the store's metadata, as Apple's documentation shows:
/// `NSManagedObjectModel(byMerging:forStoreMetadata:)`, `mergedModel(from:forStoreMetadata:)`, and the version
/// checksums of a versioned model, `checksumsForVersionedModel(at:)`.
struct ModelForStoreMetadataTests {
    /// Version 1 has `Person(name)` and `Pet(name)`; version 2 adds `Person.age`.
    private func makeModel(version: Int) -> NSManagedObjectModel {
        let person = NSEntityDescription()
        person.name = "Person"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        person.properties = [name]
        if version > 1 {
            let age = NSAttributeDescription()
            age.name = "age"
            age.attributeType = .integer16AttributeType
            person.properties.append(age)
        }
        let pet = NSEntityDescription()
        pet.name = "Pet"
        let petName = NSAttributeDescription()
        petName.name = "name"
        petName.attributeType = .stringAttributeType
        pet.properties = [petName]
        let model = NSManagedObjectModel()
        model.entities = [person, pet]
        model.setEntities([person], forConfigurationName: "People")
        return model
    }

    private func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metadata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The metadata of an SQLite store written with `model`, read as Apple's code reads it.
    private func storeMetadata(writtenWith model: NSManagedObjectModel, in directory: URL) throws -> [String: Any] {
        let url = directory.appendingPathComponent("People.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        try coordinator.remove(store)
        return try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
    }

    @Test func theVersionAStoreWasWrittenWithIsFoundAmongSeveral() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let version1 = makeModel(version: 1), version2 = makeModel(version: 2)
        let metadata = try storeMetadata(writtenWith: version1, in: directory)

        let merged = try #require(NSManagedObjectModel(byMerging: [version2, version1], forStoreMetadata: metadata))
        #expect(merged.entityVersionHashesByName == version1.entityVersionHashesByName)
        #expect(merged.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(merged.entitiesByName["Person"]?.attributesByName["age"] == nil)
        #expect(merged.entities(forConfigurationName: "People")?.compactMap(\.name) == ["Person"])
        // The merged model has its own entities: the versions it came from are left as they were.
        #expect(merged.entitiesByName["Person"] !== version1.entitiesByName["Person"])
        #expect(version1.entitiesByName["Person"]?.managedObjectModel === version1)

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: merged)
        _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                               at: directory.appendingPathComponent("People.sqlite"), options: nil)
    }

    @Test func noModelIsMadeWhenAStoreEntityHasNoMatchingVersion() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let metadata = try storeMetadata(writtenWith: makeModel(version: 2), in: directory)
        #expect(NSManagedObjectModel(byMerging: [makeModel(version: 1)], forStoreMetadata: metadata) == nil)
        #expect(NSManagedObjectModel(byMerging: [makeModel(version: 2)], forStoreMetadata: [:]) == nil)
    }

    @Test func theModelFilesOfABundleAreSearchedVersionByVersion() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let resources = directory.appendingPathComponent("Resources.bundle")
        let momd = resources.appendingPathComponent("People.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        try CompiledModelWriter.archive(makeModel(version: 1)).write(to: momd.appendingPathComponent("People.mom"))
        try CompiledModelWriter.archive(makeModel(version: 2)).write(to: momd.appendingPathComponent("People 2.mom"))
        let info: [String: Any] = ["NSManagedObjectModel_CurrentVersionName": "People 2",
                                   "NSManagedObjectModel_VersionHashes": ["People": makeModel(version: 1).entityVersionHashesByName,
                                                                          "People 2": makeModel(version: 2).entityVersionHashesByName]]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: momd.appendingPathComponent("VersionInfo.plist"))
        let bundle = try #require(Bundle(url: resources))
        #expect(try #require(NSManagedObjectModel.mergedModel(from: [bundle])).entitiesByName["Person"]?.attributesByName["age"] != nil,
                "the current version, as before")

        let metadata = try storeMetadata(writtenWith: makeModel(version: 1), in: directory)
        let found = try #require(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: metadata))
        #expect(found.entityVersionHashesByName == makeModel(version: 1).entityVersionHashesByName)

        let checksums = try NSManagedObjectModel.checksumsForVersionedModel(at: momd)
        #expect(checksums == ["People": makeModel(version: 1).versionChecksum, "People 2": makeModel(version: 2).versionChecksum])
        #expect(throws: (any Error).self) {
            _ = try NSManagedObjectModel.checksumsForVersionedModel(at: directory.appendingPathComponent("Missing.momd"))
        }
    }

    @Test func theLocalizationDictionaryReadsBackAsSet() {
        let model = makeModel(version: 1)
        #expect(model.localizationDictionary == nil)
        model.localizationDictionary = ["Entity/Person": "Persona", "Property/name/Entity/Person": "Nombre"]
        #expect(model.localizationDictionary?["Entity/Person"] == "Persona")
        #expect((model.copy() as? NSManagedObjectModel)?.localizationDictionary == model.localizationDictionary)
    }
}
