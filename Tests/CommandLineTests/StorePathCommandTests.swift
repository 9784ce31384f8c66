import CoreDataTestSupport
import Foundation
import Testing

/// What a path on the command line opens: a directory holding one store opens it, a model directory is a model, an
/// empty file is named as such, and a malformed predicate is a usage error (exit 2) for every command taking one.
struct StorePathCommandTests {
    private static let recipesModel = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path

    /// A directory holding one fresh Recipes store with one chef, and the store's path.
    private func directoryWithOneStore(named name: String = "R.sqlite") throws -> (directory: URL, store: String) {
        let directory = try TemporaryDirectory.make()
        let store = directory.appendingPathComponent(name).path
        let created = try CommandRunner.run(["create", store, "--model", Self.recipesModel])
        #expect(created.status == 0, "\(created.standardError)")
        let chef = try CommandRunner.run(["insert", store, "Chef", "name=Ada", "email=ada@example.com"])
        #expect(chef.status == 0, "\(chef.standardError)")
        return (directory, store)
    }

    @Test func aDirectoryHoldingOneStoreOpensIt() throws {
        let (directory, _) = try directoryWithOneStore()
        // Side files and other files beside the store do not count as stores.
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README.txt"))
        let count = try CommandRunner.run(["count", directory.path, "Chef"])
        #expect(count.status == 0, "\(count.standardError)")
        #expect(count.standardOutput == "1\n")
        let query = try CommandRunner.run(["query", directory.path, "Chef", "--keys", "name", "--format", "csv"])
        #expect(query.status == 0 && query.standardOutput.contains("Ada"), "\(query.standardOutput)\(query.standardError)")
        let schema = try CommandRunner.run(["schema", directory.path])
        #expect(schema.status == 0 && schema.standardOutput.contains("Recipe"), "\(schema.standardError)")
    }

    @Test func aDirectoryHoldingSeveralStoresListsThem() throws {
        let (directory, first) = try directoryWithOneStore(named: "A.sqlite")
        try FileManager.default.copyItem(atPath: first, toPath: directory.appendingPathComponent("B.sqlite").path)
        let result = try CommandRunner.run(["count", directory.path, "Chef"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("holds 2 stores"), "\(result.standardError)")
        #expect(result.standardError.contains("A.sqlite") && result.standardError.contains("B.sqlite"))
        #expect(!result.standardError.contains("is a model"))
    }

    @Test func aDirectoryWithNoStoreSaysSo() throws {
        let directory = try TemporaryDirectory.make()
        let result = try CommandRunner.run(["query", directory.path, "Chef"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("no .sqlite store"), "\(result.standardError)")
        #expect(!result.standardError.contains("is a model"))
    }

    @Test func aModelDirectoryIsStillAModel() throws {
        let result = try CommandRunner.run(["count", Self.recipesModel, "Chef"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("is a model, not a store"), "\(result.standardError)")
    }

    @Test func anEmptyFileIsNamedAsEmpty() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Empty.sqlite")
        try Data().write(to: url)
        for arguments in [["count", url.path, "Chef"], ["schema", url.path]] {
            let result = try CommandRunner.run(arguments)
            #expect(result.status == 1)
            #expect(result.standardError.contains("is empty (0 bytes): not a Core Data store"), "\(arguments): \(result.standardError)")
        }
        #expect(try Data(contentsOf: url).isEmpty, "the empty file is left as it was")
    }

    @Test func aMalformedPredicateIsAUsageErrorForEveryCommand() throws {
        let (_, store) = try directoryWithOneStore()
        let bad = "name == 'Ada' AND"
        let commands: [[String]] = [
            ["query", store, "Chef", bad], ["count", store, "Chef", bad], ["aggregate", store, "Chef", bad, "--count"],
            ["aggregate", store, "Chef", "--group-by", "name", "--count", "--having", "count >"],
            ["set", store, "Chef", bad, "name=Bo", "--yes"], ["delete", store, "Chef", bad, "--yes"],
            ["browse", store, "--predicate", bad], ["predicate", bad],
        ]
        for arguments in commands {
            let result = try CommandRunner.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("invalid predicate"), "\(arguments): \(result.standardError)")
        }
        // An unknown entity is still a runtime failure.
        #expect(try CommandRunner.run(["count", store, "Nope"]).status == 1)
        #expect(try CommandRunner.run(["count", store, "Chef"]).standardOutput == "1\n", "nothing was changed")
    }
}
