import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Stores Apple's Core Data wrote open with the model our compiler made from their Xcode source: the compiled
/// version's hashes equal the store's metadata, and every object reads as with the source model.
@Suite(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
struct CompiledModelStoreTests {
    @Test(arguments: [
        ("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld", "stores/coredataplus-simple-ios17/SampleModel3_V1.sqlite"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "stores/coredataplus-inheritance-constraints/SampleModel_V2.sqlite"),
    ])
    func appleStoreOpensWithTheCompiledModel(source: String, store: String) throws {
        let momd = try ModelCompiler.compile(try Fixtures.copy(source), into: try TemporaryDirectory.make(prefix: "momc")).url
        let storeURL = try Fixtures.copy(store)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: storeURL)
        let storeHashes = try #require(metadata[NSStoreModelVersionHashesKey] as? [String: Data])
        // The compiled version that wrote the store is found by its hashes, as Core Data matches a store to a model.
        let versions = try ModelLoader.loadVersions(at: momd)
        let index = try #require(versions.indexOfVersion(matchingStoreHashes: storeHashes), "no compiled version of \(source) matches \(store)")
        let mom = momd.appendingPathComponent("\(versions.versions[index].name).mom")
        let compiled = try #require(NSManagedObjectModel(contentsOf: mom))
        #expect(compiled.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let source = try #require(try ModelLoader.loadVersions(at: try Fixtures.copy(source)).model(named: versions.versions[index].name))

        func contents(_ model: NSManagedObjectModel) throws -> [String: Int] {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: storeURL, options: [NSReadOnlyPersistentStoreOption: true])
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return try context.performAndWait {
                var counts: [String: Int] = [:]
                for (name, entity) in model.entitiesByName {
                    let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: name))
                    // Each object's attributes are read, so a column the compiled model mislaid would show.
                    counts[name] = objects.reduce(0) { total, object in
                        total + entity.attributesByName.keys.filter { object.value(forKey: $0) != nil }.count
                    } * 1000 + objects.count
                }
                return counts
            }
        }
        let read = try contents(compiled)
        #expect(read.values.contains { $0 % 1000 > 0 }, "\(store) read no objects")
        #expect(read == (try contents(source)))
    }
}
