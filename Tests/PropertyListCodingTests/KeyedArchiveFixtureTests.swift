import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// Navigates Apple's real keyed archives: compiled models, model caches and Xcode 3 model files.
@Suite(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
struct KeyedArchiveFixtureTests {
    @Test(arguments: FixtureFiles.compiledModels)
    func compiledModelListsTheEntitiesOfVersionInfo(path: String) throws {
        let archive = try KeyedArchive(bytes: FixtureFiles.bytes(path))
        #expect(archive.archiverName == "NSKeyedArchiver")
        #expect(archive.version == 100_000)
        let walker = try ModelArchiveWalker(archive)
        #expect(walker.model.className == "NSManagedObjectModel")

        // VersionInfo.plist beside the .mom lists the version's entities with their hashes.
        let directory = (path as NSString).deletingLastPathComponent
        let version = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let versionInfo = try PropertyList.read(FixtureFiles.bytes(directory + "/VersionInfo.plist"))
        let hashes = try #require(versionInfo["NSManagedObjectModel_VersionHashes"]?[version]?.dictionaryValue)
        #expect(walker.entities.keys.sorted() == hashes.keys.sorted())
        try checkModelGraph(walker, label: path)
    }

    @Test(.enabled(if: FixtureFiles.hasSQLite3 && FixtureFiles.hasPython3, "needs the sqlite3 and python3 tools"),
          arguments: FixtureFiles.stores)
    func modelCacheListsTheEntitiesOfTheMetadata(store: String) throws {
        let cacheTables = try FixtureFiles.blobs(
            fromStore: store, query: "SELECT hex(name) FROM sqlite_master WHERE name = 'Z_MODELCACHE'")
        let caches = !cacheTables.isEmpty
            ? try FixtureFiles.blobs(fromStore: store, query: "SELECT hex(Z_CONTENT) FROM Z_MODELCACHE") : []
        guard let cache = caches.first else {
            // Stores older than framework 754 have no cache (§2.3); the iOS 4 store is one.
            #expect(store.contains("ios4"))
            return
        }
        let archiveBytes = try FixtureFiles.rawInflate(cache)
        let walker = try ModelArchiveWalker(KeyedArchive(bytes: archiveBytes))
        #expect(walker.entitiesDictionaryClass == "NSKnownKeysDictionary1")
        let metadata = try PropertyList.read(
            try FixtureFiles.blobs(fromStore: store, query: "SELECT hex(Z_PLIST) FROM Z_METADATA")[0])
        let hashes = try #require(metadata["NSStoreModelVersionHashes"]?.dictionaryValue)
        #expect(walker.entities.keys.sorted() == hashes.keys.sorted())
        try checkModelGraph(walker, label: store)
        // The cache is a plist like any other: it survives our binary and XML round trips.
        let value = try PropertyList.read(archiveBytes)
        #expect(try PropertyList.read(PropertyList.write(value, format: .binary)) == value)
        #expect(try PropertyList.read(PropertyList.write(value, format: .xml)) == value)
    }

    /// Entity names agree with `NSEntityName`, every entity points back at the model (the cycle), properties
    /// belong to their entity, relationships point at entities of the model and inverses point back.
    private func checkModelGraph(_ walker: ModelArchiveWalker, label: String) throws {
        #expect(!walker.entities.isEmpty, "\(label)")
        let entityReferences = Set(walker.entities.values.map(\.reference))
        for (name, entity) in walker.entities {
            #expect(entity.className == "NSEntityDescription")
            #expect(try entity.string(forKey: "NSEntityName") == name)
            #expect(try entity.object(forKey: "NSManagedObjectModel")?.reference == walker.model.reference)
            if let superentity = try entity.object(forKey: "NSSuperentity") {
                #expect(entityReferences.contains(superentity.reference))
            }
            for (propertyName, property) in try walker.properties(of: entity) {
                #expect(property.isKind(of: "NSPropertyDescription") || property.className.hasSuffix("Description"))
                #expect(try property.string(forKey: "NSPropertyName") == propertyName)
                #expect(try property.object(forKey: "NSEntity")?.reference == entity.reference)
                if property.className == "NSAttributeDescription" {
                    #expect(try property.integer(forKey: "NSAttributeType") != nil)
                }
                if property.className == "NSRelationshipDescription" {
                    let destination = try #require(try property.object(forKey: "NSDestinationEntity"))
                    #expect(entityReferences.contains(destination.reference))
                    #expect(try property.string(forKey: "_NSDestinationEntityName") == destination.string(forKey: "NSEntityName"))
                    if let inverse = try property.object(forKey: "NSInverseRelationship") {
                        // Subentities carry their own copies of inherited relationships, and an inverse points at
                        // the superentity's copy, so the check is by name rather than by object.
                        #expect(try inverse.string(forKey: "NSPropertyName") == property.string(forKey: "_NSInverseRelationshipName"))
                        #expect(try inverse.object(forKey: "NSInverseRelationship")?.string(forKey: "NSPropertyName") == propertyName)
                    }
                }
            }
        }
        print("[\(label)] entities \(walker.entities.keys.sorted()) in \(walker.entitiesDictionaryClass)")
        for (className, keys) in walker.keysByClass.sorted(by: { $0.key < $1.key }) {
            print("[\(label)] \(className): \(keys.sorted().joined(separator: " "))")
        }
    }

    @Test func oldXcodeModelFilesAreNavigable() throws {
        let elements = try KeyedArchive(bytes: FixtureFiles.bytes("stores/coredatabooks-ios4/CoreDataBooks.xcdatamodel.elements"))
        let root = try elements.topObject()
        #expect(root.className == "XDPMModel")
        // Every XDPMEntity in $objects, by its `_name`.
        let entityNames = try elements.objects(ofClass: "XDPMEntity").map { try $0.string(forKey: "_name") }
        #expect(entityNames.contains("Book"))
        #expect(try elements.objects(ofClass: "XDPMAttribute").count >= 3)

        let layout = try KeyedArchive(bytes: FixtureFiles.bytes("stores/coredatabooks-ios4/CoreDataBooks.xcdatamodel.layout"))
        let layoutRoot = try layout.topObject()
        #expect(layoutRoot.isKind(of: "NSDictionary"))
        #expect(try !layoutRoot.dictionaryEntries().isEmpty)
    }
}
