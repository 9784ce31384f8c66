import CoreDataTestSupport
import Foundation
import Testing

/// `coredata convert`, `create --type`, `--type` and type detection: every command on XML and binary stores, through
/// the real executable.
struct StoreTypeCommandTests {
    static let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path

    /// A copy of the Recipes sample store (with its external data folder).
    static func recipesCopy() throws -> String {
        let source = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes")
        let directory = try TemporaryDirectory.make()
        try FileManager.default.copyItem(at: source.appendingPathComponent("Recipes.sqlite"), to: directory.appendingPathComponent("Recipes.sqlite"))
        let support = source.appendingPathComponent(".Recipes_SUPPORT")
        if FileManager.default.fileExists(atPath: support.path) {
            try FileManager.default.copyItem(at: support, to: directory.appendingPathComponent(".Recipes_SUPPORT"))
        }
        return directory.appendingPathComponent("Recipes.sqlite").path
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(arguments)
    }

    /// `query … --format jsonl` of `entity` sorted by name, as text.
    func rows(_ store: String, _ entity: String, _ extra: [String] = [], keys: String = "name") throws -> String {
        let sort = String(keys.split(separator: ",")[0])
        let result = try run(["query", store, entity, "--keys", keys, "--sort", sort, "--format", "jsonl"] + extra)
        #expect(result.status == 0, "\(store): \(result.standardError)")
        return result.standardOutput
    }

    @Test func convertGoesThroughEveryTypeAndBackWithTheSameObjects() throws {
        let sqlite = try Self.recipesCopy()
        let directory = URL(fileURLWithPath: sqlite).deletingLastPathComponent()
        let xml = directory.appendingPathComponent("Recipes.xml").path
        let binary = directory.appendingPathComponent("Recipes.binary").path
        let back = directory.appendingPathComponent("back/Recipes.sqlite").path
        let toXML = try run(["convert", sqlite, xml, "--to", "xml"])
        #expect(toXML.status == 0, "\(toXML.standardError)")
        #expect(toXML.standardOutput.contains("(sqlite, ") && toXML.standardOutput.hasSuffix("to \(xml) (xml)\n"), "\(toXML.standardOutput)")
        #expect(try String(contentsOfFile: xml, encoding: .utf8).contains("<database>"))
        let toBinary = try run(["convert", xml, binary, "--to", "binary", "--model", Self.model])
        #expect(toBinary.status == 0, "\(toBinary.standardError)")
        let toSQLite = try run(["convert", binary, back, "--to", "sqlite", "--model", Self.model])
        #expect(toSQLite.status == 0, "\(toSQLite.standardError)")
        // No temporary file is left beside any of them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("converting") }.isEmpty)
        let keys = ["Recipe": "name,minutes,created,rating,chef.name,cuisine.name", "Chef": "name,email,recipeCount",
                    "Ingredient": "name,quantity,recipe.name", "Tag": "label", "Cuisine": "name,region"]
        for (entity, keys) in keys {
            let expected = try rows(sqlite, entity, keys: keys)
            #expect(!expected.isEmpty)
            #expect(try rows(xml, entity, ["--model", Self.model], keys: keys) == expected, "\(entity) in XML")
            #expect(try rows(binary, entity, ["--model", Self.model], keys: keys) == expected, "\(entity) in binary")
            #expect(try rows(back, entity, keys: keys) == expected, "\(entity) back in SQLite")
        }
        // Photos with external data come back byte for byte.
        let photos = try rows(sqlite, "Photo", keys: "caption,imageData")
        #expect(try rows(back, "Photo", keys: "caption,imageData") == photos)
        // An existing OUT is refused and left alone.
        let before = try Data(contentsOf: URL(fileURLWithPath: xml))
        let again = try run(["convert", sqlite, xml, "--to", "xml"])
        #expect(again.status == 1 && again.standardError.contains("refusing to overwrite"), "\(again.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: xml)) == before)
        let bad = try run(["convert", sqlite, xml + "2", "--to", "csv"])
        #expect(bad.status == 2 && bad.standardError.contains("csv"), "\(bad.standardError)")
    }

    @Test func createTypeThenEditAndReadAnXMLAndABinaryStore() throws {
        let directory = try TemporaryDirectory.make()
        for type in ["xml", "binary"] {
            let store = directory.appendingPathComponent("R.\(type)").path
            let created = try run(["create", store, "--model", Self.model, "--type", type])
            #expect(created.status == 0, "\(created.standardError)")
            #expect(created.standardOutput.hasPrefix("created \(store) (\(type), UUID "), "\(created.standardOutput)")
            #expect(try run(["create", store, "--model", Self.model, "--type", type]).standardError.contains("refusing to overwrite"))
            let chef = try run(["insert", store, "Chef", "name=Ada", "email=ada@example.com", "--model", Self.model])
            #expect(chef.status == 0, "\(chef.standardError)")
            let recipe = try run(["insert", store, "Recipe", "name=Soup", "normalizedName=soup", "created=2024-05-01",
                                  "identifier=00000000-0000-0000-0000-000000000001", "minutes=20", "--model", Self.model])
            #expect(recipe.status == 0, "\(recipe.standardError)")
            let set = try run(["set", store, "Recipe", "name == 'Soup'", "minutes=25", "--model", Self.model])
            #expect(set.status == 0 && set.standardOutput.contains("minutes: 20 → 25"), "\(set.standardOutput)\(set.standardError)")
            let invalid = try run(["insert", store, "Recipe", "name=Broken", "--model", Self.model])
            #expect(invalid.status == 1 && invalid.standardError.contains("nothing was saved"), "\(invalid.standardError)")
            #expect(try rows(store, "Recipe", ["--model", Self.model], keys: "name,minutes") == "{\"name\":\"Soup\",\"minutes\":25}\n")
            let count = try run(["count", store, "Chef", "--model", Self.model])
            #expect(count.status == 0 && count.standardOutput == "1\n", "\(count.standardOutput)\(count.standardError)")
            let schema = try run(["schema", store, "--model", Self.model, "--format", "json"])
            #expect(schema.status == 0, "\(schema.standardError)")
            let report = try JSONSerialization.jsonObject(with: Data(schema.standardOutput.utf8)) as? [String: Any]
            let summary = report?["store"] as? [String: Any]
            #expect(summary?["type"] as? String == (type == "xml" ? "XML" : "Binary"))
            #expect(summary?["hashesMatchModel"] as? Bool == true)
            let chefs = (report?["entities"] as? [[String: Any]])?.first { $0["name"] as? String == "Chef" }
            #expect(chefs?["rowCount"] as? Int == 1)
            let deleted = try run(["delete", store, "Chef", "TRUEPREDICATE", "--model", Self.model])
            #expect(deleted.status == 0, "\(deleted.standardError)")
            #expect(try run(["count", store, "Chef", "--model", Self.model]).standardOutput == "0\n")
            let diff = try run(["diff", store, store, "--model", Self.model])
            #expect(diff.status == 0, "\(diff.standardError)")
        }
    }

    @Test func theTypeIsDetectedGivenOrRefused() throws {
        let sqlite = try Self.recipesCopy()
        let xml = URL(fileURLWithPath: sqlite).deletingLastPathComponent().appendingPathComponent("store.xml").path
        #expect(try run(["convert", sqlite, xml, "--to", "xml"]).status == 0)
        // An XML store reads with a model inferred from the file (names as the file writes them) when none is given.
        let inferred = try run(["count", xml, "RECIPE"])
        let recipes = try run(["count", sqlite, "Recipe"]).standardOutput
        #expect(inferred.status == 0, "\(inferred.standardError)")
        #expect(inferred.standardOutput == recipes)
        // Editing needs the model.
        let refused = try run(["insert", xml, "RECIPE", "name=X"])
        #expect(refused.status == 1 && refused.standardError.contains("pass --model"), "\(refused.standardError)")
        // A type that is not the file's: the reader names the file and the place.
        let wrong = try run(["count", xml, "Recipe", "--type", "binary", "--model", Self.model])
        #expect(wrong.status == 1 && wrong.standardError.contains("\(xml): byte 0"), "\(wrong.standardError)")
        let unknown = try run(["count", xml, "Recipe", "--type", "csv"])
        #expect(unknown.status == 2 && unknown.standardError.contains("csv"), "\(unknown.standardError)")
        // A binary store carries no model.
        let binary = URL(fileURLWithPath: sqlite).deletingLastPathComponent().appendingPathComponent("store.binary").path
        #expect(try run(["convert", sqlite, binary, "--to", "binary"]).status == 0)
        let noModel = try run(["count", binary, "Recipe"])
        #expect(noModel.status == 1 && noModel.standardError.contains("carries no model: pass --model"), "\(noModel.standardError)")
        // --type memory reads the file into memory; edits are refused, the file is never written.
        let before = try Data(contentsOf: URL(fileURLWithPath: sqlite))
        let memory = try run(["count", sqlite, "Recipe", "--type", "memory"])
        #expect(memory.status == 0 && memory.standardOutput == recipes, "\(memory.standardError)")
        let edit = try run(["set", sqlite, "Recipe", "TRUEPREDICATE", "minutes=1", "--yes", "--type", "memory"])
        #expect(edit.status == 2 && edit.standardError.contains("--type memory"), "\(edit.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sqlite)) == before)
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func aMoodyMappingModelIsReadAsAnXMLStore() throws {
        let folder = try Fixtures.copy("models/objcio-moody-migrations")
        let file = try #require(FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }
            .first { $0.hasSuffix("xcmapping.xml") })
        let path = folder.appendingPathComponent(file).path
        let schema = try run(["schema", path])
        #expect(schema.status == 0, "\(schema.standardError)")
        #expect(schema.standardOutput.contains("XML"), "\(schema.standardOutput)")
        let count = try run(["count", path, "XDDEVENTITYMAPPING"])
        #expect(count.status == 0, "\(count.standardError)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(count.standardOutput == "\(text.components(separatedBy: "<object type=\"XDDEVENTITYMAPPING\"").count - 1)\n")
    }
}
