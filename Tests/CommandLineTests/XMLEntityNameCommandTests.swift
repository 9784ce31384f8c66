import CoreDataTestSupport
import Foundation
import Testing

/// An XML store read without its model: the file writes entity names in upper case, and the commands still find an
/// entity by the name the app gave it, spelled back from the metadata's version hashes (or matched without regard to
/// case), through the real executable.
struct XMLEntityNameCommandTests {
    func run(_ arguments: [String]) throws -> CommandRunner.Result { try CommandRunner.run(arguments) }

    /// The entity names a `schema --format json` report lists.
    func entityNames(_ store: String) throws -> Set<String> {
        let schema = try run(["schema", store, "--format", "json"])
        #expect(schema.status == 0, "\(schema.standardError)")
        let report = try JSONSerialization.jsonObject(with: Data(schema.standardOutput.utf8)) as? [String: Any]
        return Set(((report?["entities"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
    }

    @Test func theConvertedSampleIsQueriedByItsEntityNames() throws {
        let sqlite = try StoreTypeCommandTests.recipesCopy()
        let xml = URL(fileURLWithPath: sqlite).deletingLastPathComponent().appendingPathComponent("r.xml").path
        let converted = try run(["convert", sqlite, xml, "--to", "xml"])
        #expect(converted.status == 0, "\(converted.standardError)")
        // The file folds the names, as Apple's does.
        #expect(try String(contentsOfFile: xml, encoding: .utf8).contains("<object type=\"RECIPE\""))
        let names = try entityNames(xml), sqliteNames = try entityNames(sqlite)
        #expect(names == sqliteNames)
        for (entity, key) in ["Recipe": "name", "Chef": "name", "Ingredient": "name", "Tag": "label", "Cuisine": "name"] {
            let query = try run(["query", xml, entity, "--keys", key, "--sort", key, "--format", "jsonl"])
            let expected = try run(["query", sqlite, entity, "--keys", key, "--sort", key, "--format", "jsonl"])
            #expect(query.status == 0, "\(entity): \(query.standardError)")
            #expect(!query.standardOutput.isEmpty && query.standardOutput == expected.standardOutput, "\(entity)")
        }
        // Any spelling that differs only in case finds the one entity; a wrong name lists the real ones.
        let recipes = try run(["count", sqlite, "Recipe"]).standardOutput
        for spelling in ["recipe", "RECIPE", "rEcIpE"] {
            let count = try run(["count", xml, spelling])
            #expect(count.status == 0 && count.standardOutput == recipes, "\(spelling): \(count.standardError)")
        }
        let aggregate = try run(["aggregate", xml, "recipe", "--count"])
        #expect(aggregate.status == 0 && aggregate.standardOutput.contains(recipes.trimmingCharacters(in: .whitespacesAndNewlines)),
                "\(aggregate.standardOutput)\(aggregate.standardError)")
        let wrong = try run(["query", xml, "Recipes"])
        #expect(wrong.status == 1 && wrong.standardError.contains("unknown entity \"Recipes\"")
                && wrong.standardError.contains("Chef, Cuisine"), "\(wrong.standardError)")
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"), arguments: MoodyNames.files)
    func aMoodyMappingModelHasXcodesEntityNames(name: String) throws {
        let folder = try Fixtures.copy("models/objcio-moody-migrations/\(name).xcmappingmodel")
        let path = folder.appendingPathComponent("xcmapping.xml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let names = try entityNames(path)
        #expect(!names.isEmpty)
        // Every entity is spelled as Xcode's model spells it (the keys of the metadata's version hashes).
        #expect(names.isSubset(of: MoodyNames.xcodeEntities), "\(names)")
        for entity in names {
            let written = "<object type=\"\(entity.uppercased())\""
            let expected = "\(text.components(separatedBy: written).count - 1)\n"
            for spelling in [entity, entity.uppercased(), entity.lowercased()] {
                let count = try run(["count", path, spelling])
                #expect(count.status == 0 && count.standardOutput == expected, "\(spelling): \(count.standardOutput)\(count.standardError)")
            }
        }
        let mappings = try run(["query", path, "XDDevEntityMapping", "--keys", "sourcename", "--format", "jsonl"])
        #expect(mappings.status == 0 && mappings.standardOutput.contains("\"sourcename\":"), "\(mappings.standardError)")
    }
}

enum MoodyNames {
    static let files = ["Moody 2-Moody 3", "Moody 3-Moody 4", "Moody 4-Moody 5", "Moody 5-Moody 6"]
    static let xcodeEntities: Set<String> = ["XDDevAttributeMapping", "XDDevEntityMapping", "XDDevMappingModel", "XDDevPropertyMapping",
                                             "XDDevRelationshipMapping"]
}
