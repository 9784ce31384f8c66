import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

@Suite("Store layout against Apple's schemas", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-schema tests skipped"))
struct StoreLayoutTests {
    static let cases: [(model: String, version: String, metadata: String)] = [
        ("stores/contentful-manytomany-ordered/Test.xcdatamodeld", "Test", "stores/contentful-manytomany-ordered/METADATA.txt"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "SampleModel",
         "stores/coredataplus-inheritance-constraints/METADATA-SampleModel_V1.txt"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "SampleModel2",
         "stores/coredataplus-inheritance-constraints/METADATA-SampleModel_V2.txt"),
        ("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld", "SampleModel3", "stores/coredataplus-simple-ios17/METADATA.txt"),
        ("stores/apple-recipes-ios11/Recipes.xcdatamodeld", "Recipes", "stores/apple-recipes-ios11/METADATA.txt"),
    ]

    @Test("CREATE TABLE statements equal Apple's", arguments: cases.indices)
    func tablesMatchApple(index: Int) throws {
        let fixture = Self.cases[index]
        let model = try #require(try ModelLoader.loadVersions(at: try Fixtures.copy(fixture.model)).model(named: fixture.version))
        let layout = StoreLayout(model: model)
        let apple = try AppleSchema.createTableStatements(inMetadataFile: fixture.metadata)
            .filter { !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains($0.key) }
        var ours: [String: String] = [:]
        for table in layout.tables { ours[table.name] = layout.createStatement(for: table) }
        for join in layout.joinTables { ours[join.name] = layout.createStatement(for: join) }
        #expect(ours == apple)
    }

    @Test func entityNumbersFollowApple() throws {
        let model = try ModelLoader.loadModel(
            at: try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld"))
        let numbering = EntityNumbering(model: model)
        #expect(numbering.numbers == ["Car": 1, "SportCar": 2, "ExpensiveSportCar": 3, "Person": 4])
        #expect(numbering.range(of: "Car") == 1...3)
        #expect(numbering.range(of: "SportCar") == 2...3)
        let layout = StoreLayout(model: model)
        #expect(layout.table(forEntity: "ExpensiveSportCar")?.name == "ZCAR")
        #expect(layout.columns(forProperty: "maker", ofEntity: "ExpensiveSportCar")?.value == "ZMAKER")
        #expect(layout.columns(forProperty: "owner", ofEntity: "SportCar")?.value == "ZOWNER")
        #expect(layout.columns(forProperty: "cars", ofEntity: "Person") == nil)
    }

    @Test func joinTablesNameBothSides() throws {
        let model = try ModelLoader.loadModel(at: try Fixtures.copy("stores/contentful-manytomany-ordered/Test.xcdatamodeld"))
        let layout = StoreLayout(model: model)
        let join = try #require(layout.joinTable(forRelationship: "authors", ofEntity: "Post"))
        #expect(join.name == "Z_2CREATEDENTRIES")
        #expect(join.entityName == "Author" && join.relationshipName == "createdEntries")
        #expect(join.sourceKeyColumn == "Z_2AUTHORS" && join.destinationKeyColumn == "Z_4CREATEDENTRIES")
        #expect(join.relationshipOrderColumn == "Z_FOK_4CREATEDENTRIES" && join.inverseOrderColumn == "Z_FOK_2AUTHORS")
    }
}

@Suite("Full schema against Apple's", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-schema tests skipped"))
struct StoreSchemaTests {
    /// Stores created from scratch by Core Data (not migrated), whose whole schema we must reproduce in order.
    static let cases: [(model: String, version: String, metadata: String)] = [
        ("stores/contentful-manytomany-ordered/Test.xcdatamodeld", "Test", "stores/contentful-manytomany-ordered/METADATA.txt"),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "SampleModel",
         "stores/coredataplus-inheritance-constraints/METADATA-SampleModel_V1.txt"),
        ("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld", "SampleModel3", "stores/coredataplus-simple-ios17/METADATA.txt"),
        ("stores/apple-recipes-ios11/Recipes.xcdatamodeld", "Recipes", "stores/apple-recipes-ios11/METADATA.txt"),
    ]

    @Test("schema statements equal Apple's, in order", arguments: cases.indices)
    func schemaMatchesApple(index: Int) throws {
        let fixture = Self.cases[index]
        let model = try #require(try ModelLoader.loadVersions(at: try Fixtures.copy(fixture.model)).model(named: fixture.version))
        let apple = try AppleSchema.statements(inMetadataFile: fixture.metadata).map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 }
        #expect(StoreLayout(model: model).schemaStatements(model: model) == apple)
    }

    @Test func uniqueAndFetchIndexesOfTheMigratedStoreAreApples() throws {
        let model = try #require(try ModelLoader.loadVersions(
            at: try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld")).model(named: "SampleModel2"))
        let layout = StoreLayout(model: model)
        let apple = Set(try AppleSchema.statements(inMetadataFile: "stores/coredataplus-inheritance-constraints/METADATA-SampleModel_V2.txt")
            .map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 })
        #expect(Set(layout.schemaStatements(model: model)) == apple, "same statements; a migrated store's order differs")
    }
}

@Suite("Schema from each store's own model cache", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-schema tests skipped"))
struct CachedModelSchemaTests {
    /// Stores that a lightweight migration rewrote: same statements, Apple's creation order lost.
    static let migrated: Set<String> = [
        "stores/coredataplus-inheritance-constraints/SampleModel_V2.sqlite",
    ]

    @Test("the DDL we derive from the cached model is the DDL Apple wrote", arguments: Fixtures.allStores())
    func schemaFromCacheMatchesStore(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        let store = try SQLiteStoreFile(path: copy.path)
        guard let model = try store.cachedModel() else { return }  // no cache: covered by the XML-model tests
        // History-tracking tables (A…, Z_ENT ≥ 16001) are Core Data's own, not the model's.
        let history = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
        let apple = try store.connection.schemaStatements().filter { statement in
            !history.contains { statement.contains(" \($0) ") || statement.contains("ON \($0) ") || statement.contains("Z_TRANSACTION") }
        }
        let ours = StoreLayout(model: model).schemaStatements(model: model)
        #expect(ours.filter { !apple.contains($0) } == [], "statements only we write")
        #expect(apple.filter { !ours.contains($0) } == [], "statements only Apple wrote")
        if Self.migrated.contains(relativePath) {
            #expect(Set(ours) == Set(apple))
        } else {
            #expect(ours == apple)
        }
    }
}
