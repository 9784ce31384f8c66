import CoreDataTestSupport
import Foundation
import Testing

/// `coredata schema`, driven through the real executable.
@Suite("coredata schema")
struct SchemaCommandTests {
    @Test func sampleModelPrintsEntities() throws {
        let result = try CommandRunner.run(["schema", Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path])
        #expect(result.status == 0, "\(result.standardError)")
        for entity in ["Chef", "Cuisine", "Ingredient", "Photo", "Recipe", "Tag"] {
            #expect(result.standardOutput.contains("Entity \(entity)"))
        }
        #expect(result.standardOutput.contains("ingredients  to-many ordered Ingredient"))
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"), arguments: Fixtures.allStores())
    func everyAppleStoreReportsMatchingHashesAndCounts(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        let result = try CommandRunner.run(["schema", copy.path, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let store = try #require(json?["store"] as? [String: Any])
        #expect(json?["kind"] as? String == "store")
        let entities = try #require(json?["entities"] as? [[String: Any]])
        #expect(!entities.isEmpty)
        if store["modelSource"] as? String == "modelCache" {
            #expect(store["hashesMatchModel"] as? Bool == true)
            for entity in entities {
                #expect(entity["versionHash"] as? String == entity["storeVersionHash"] as? String)
            }
        }
        for entity in entities {
            #expect(entity["rowCount"] is Int, "every entity of a store has a row count")
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
    func rowCountsAndInheritanceInText() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let result = try CommandRunner.run(["schema", copy.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Entity Car  115 rows (125 with subentities)"))
        #expect(result.standardOutput.contains("Entity ExpensiveSportCar : SportCar"))
        #expect(result.standardOutput.contains("version hashes: match the store's metadata"))
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
    func storeWithAGivenModel() throws {
        let store = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V2.sqlite")
        let model = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld")
        let result = try CommandRunner.run(["schema", store.path, "--model", model.path, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let summary = try #require(json?["store"] as? [String: Any])
        #expect(summary["modelSource"] as? String == "modelFile")
        #expect(summary["hashesMatchModel"] as? Bool == true, "the version that wrote the store is chosen")
        #expect((json?["model"] as? [String: Any])?["versionName"] as? String == "SampleModel2")
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
    func mismatchedModelIsReported() throws {
        let store = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let model = try Fixtures.copy("stores/contentful-manytomany-ordered/Test.xcdatamodeld")
        let result = try CommandRunner.run(["schema", store.path, "--model", model.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("version hashes: DO NOT MATCH"))
    }

    // MARK: Errors

    @Test func missingFileExitsOneNamingTheFile() throws {
        let path = try TemporaryDirectory.make().appendingPathComponent("nothing.sqlite").path
        let result = try CommandRunner.run(["schema", path])
        #expect(result.status == 1)
        #expect(result.standardError.contains(path) && result.standardError.contains("no such file"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func notSQLiteExitsOne() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("photo.sqlite")
        try Data(repeating: 0x42, count: 4096).write(to: url)
        let result = try CommandRunner.run(["schema", url.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("not an SQLite database"))
    }

    @Test func malformedModelNamesTheElement() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("contents")
        try Data("<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"Nope\"/></entity></model>".utf8).write(to: url)
        let result = try CommandRunner.run(["schema", url.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("/model/entity[@name='A']/attribute[@name='x']"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CommandRunner.run(["schema"]).status == 2)
        #expect(try CommandRunner.run(["schema", "x", "--format", "yaml"]).status == 2)
        #expect(try CommandRunner.run(["no-such-command"]).status == 2)
    }

    @Test func hostileNamesAreSanitised() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("contents")
        // XML 1.0 forbids C0 controls, but allows C1 controls (U+009B is CSI) and bidi overrides.
        try Data("<model><entity name=\"Evil&#x9B;2J&#x202E;\"><attribute name=\"a&#x9D;0;x\" attributeType=\"String\"/></entity></model>".utf8).write(to: url)
        let result = try CommandRunner.run(["schema", url.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(result.standardOutput.contains("Evil<U+009B>2J<U+202E>"))
        let raw = try CommandRunner.run(["schema", url.path.replacingOccurrences(of: "contents", with: "missing\u{1B}[2J")])
        #expect(raw.status == 1)
        #expect(!raw.standardError.contains("\u{1B}"), "paths in error messages are sanitised too")
    }
}
