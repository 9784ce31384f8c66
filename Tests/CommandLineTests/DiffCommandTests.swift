import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 22, item 5: `coredata diff A B` on copies of one store, one of them changed by SQL.
@Suite("coredata diff")
struct DiffCommandTests {
    /// A copy of the store with its folder, so externally stored values travel with it.
    static func copy(_ path: String) throws -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let destination = try TemporaryDirectory.make(prefix: "diff").appendingPathComponent((folder as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: folder, toPath: destination)
        return (destination as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    static let recipes = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path

    static func json(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try CommandRunner.run(arguments + ["--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return object?["entities"] as? [[String: Any]] ?? []
    }

    @Test("a store against its own copy has no differences")
    func identical() throws {
        let before = try Self.copy(Self.recipes), after = try Self.copy(Self.recipes)
        let result = try CommandRunner.run(["diff", before, after])
        #expect(result.status == 0 && result.standardOutput.hasSuffix("no differences\n"), "\(result.standardOutput)\(result.standardError)")
    }

    @Test("added, removed and changed objects, by primary key")
    func byPrimaryKey() throws {
        let before = try Self.copy(Self.recipes), after = try Self.copy(Self.recipes)
        let connection = try Connection(path: after, mode: .readWrite)
        try connection.execute(sql: """
            UPDATE ZRECIPE SET ZMINUTES = 999, ZCHEF = 2 WHERE Z_PK = 3;
            DELETE FROM ZTAG WHERE Z_PK = 1; DELETE FROM Z_5TAGS WHERE Z_6TAGS = 1;
            INSERT INTO ZCUISINE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZREGION) VALUES (900, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Cuisine'), 1, 'Martian', 'Mars');
            """)
        let entities = try Self.json(["diff", before, after])
        func entry(_ name: String) -> [String: Any] { entities.first { $0["entity"] as? String == name } ?? [:] }
        let cuisine = entry("Cuisine")
        #expect((cuisine["added"] as? [[String: Any]])?.map { $0["primaryKey"] as? Int } == [900])
        #expect((cuisine["added"] as? [[String: Any]])?.first?["label"] as? String == "Martian")
        let tag = entry("Tag")
        #expect((tag["removed"] as? [[String: Any]])?.map { $0["primaryKey"] as? Int } == [1])
        let recipeChanges = try #require(entry("Recipe")["changed"] as? [[String: Any]])
        let recipe3 = try #require(recipeChanges.first { $0["primaryKey"] as? Int == 3 })
        let changes = try #require(recipe3["changes"] as? [String: [String: Any]])
        #expect(changes["minutes"]?["to"] as? Int == 999)
        #expect(changes["chef"]?["to"] as? String == "p2")
        // Recipes that lost tag 1 changed their tags too; nothing else changed.
        for change in recipeChanges where change["primaryKey"] as? Int != 3 {
            #expect((change["changes"] as? [String: Any]).map { Set($0.keys) } == ["tags"])
        }
        let chefChanges = entry("Chef")["changed"] as? [[String: Any]] ?? []
        #expect(Set(chefChanges.compactMap { ($0["changes"] as? [String: Any])?.keys.sorted() }.flatMap { $0 }) == ["recipes"])
        let table = try CommandRunner.run(["diff", before, after, "--entity", "Cuisine"])
        #expect(table.standardOutput == "Cuisine: 1 added, 0 removed, 0 changed\n  + p900  Martian\n1 difference\n", "\(table.standardOutput)")
    }

    @Test("--key matches by an attribute, so a renumbered object is not added and removed")
    func byKey() throws {
        let before = try Self.copy(Self.recipes), after = try Self.copy(Self.recipes)
        let connection = try Connection(path: after, mode: .readWrite)
        try connection.execute(sql: "UPDATE ZCUISINE SET Z_PK = Z_PK + 1000, ZREGION = 'Moved' WHERE Z_PK = 1")
        let byPrimaryKey = try Self.json(["diff", before, after, "--entity", "Cuisine"])
        #expect((byPrimaryKey.first?["added"] as? [Any])?.count == 1 && (byPrimaryKey.first?["removed"] as? [Any])?.count == 1)
        let byName = try Self.json(["diff", before, after, "--entity", "Cuisine", "--key", "name"])
        #expect((byName.first?["added"] as? [Any])?.isEmpty == true && (byName.first?["removed"] as? [Any])?.isEmpty == true)
        let changes = (byName.first?["changed"] as? [[String: Any]])?.first?["changes"] as? [String: [String: Any]]
        #expect(changes?["region"]?["to"] as? String == "Moved")
    }

    @Test("stores of different models are refused with the entities that differ", .enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func differentModels() throws {
        let fixture = try Fixtures.copy("stores/coredataplus-simple-ios17/SampleModel3_V1.sqlite")
        let result = try CommandRunner.run(["diff", fixture.path, Self.recipes])
        #expect(result.status == 1 && result.standardError.contains("are not stores of one model"), "\(result.standardError)")
        let same = try Fixtures.copy("stores/coredataplus-simple-ios17/SampleModel3_V1.sqlite")
        let identical = try CommandRunner.run(["diff", fixture.path, same.path])
        #expect(identical.status == 0 && identical.standardOutput.hasSuffix("no differences\n"), "\(identical.standardOutput)\(identical.standardError)")
    }
}
