import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 22, item 5: `coredata diff STORE --wal`, the store's main file alone against the main file with its
/// `-wal`, read from copies so that the user's files are never opened by SQLite.
@Suite("coredata diff --wal")
struct DiffWALCommandTests {
    /// A copy of Recipes in WAL mode whose `-wal` holds transactions the main file does not: written with
    /// automatic checkpoints off, then copied with its `-wal` while the writer still has it open (closing the last
    /// connection would checkpoint). The copy is in a folder of its own, with the store's external data.
    static func storeWithWAL(_ sql: String) throws -> String {
        let source = try DiffCommandTests.copy(DiffCommandTests.recipes)
        let writer = try Connection(path: source, mode: .readWrite)
        #expect(try writer.setJournalMode(.wal) == .wal)
        _ = try writer.setPragma("wal_autocheckpoint", to: .integer(0))
        try writer.execute(sql: sql)
        let sourceFolder = (source as NSString).deletingLastPathComponent
        let folder = try TemporaryDirectory.make(prefix: "diff-wal").appendingPathComponent("Recipes").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["Recipes.sqlite", "Recipes.sqlite-wal", ".Recipes_SUPPORT"] {
            try FileManager.default.copyItem(atPath: (sourceFolder as NSString).appendingPathComponent(name),
                                             toPath: (folder as NSString).appendingPathComponent(name))
        }
        withExtendedLifetime(writer) {}
        return (folder as NSString).appendingPathComponent("Recipes.sqlite")
    }

    /// Every file of the store's folder and its bytes.
    static func contents(of folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            files[name] = isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    @Test("the -wal's transactions show as changes, and the store's files are left byte for byte, with no -shm")
    func walChanges() throws {
        let store = try Self.storeWithWAL("""
            UPDATE ZRECIPE SET ZMINUTES = 999 WHERE Z_PK = 3;
            INSERT INTO ZCUISINE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZREGION) VALUES (900, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Cuisine'), 1, 'Martian', 'Mars');
            """)
        let folder = (store as NSString).deletingLastPathComponent
        let before = try Self.contents(of: folder)
        #expect(before["Recipes.sqlite-wal"].map { $0.count > 0 } == true)
        let entities = try DiffCommandTests.json(["diff", store, "--wal"])
        func entry(_ name: String) -> [String: Any] { entities.first { $0["entity"] as? String == name } ?? [:] }
        #expect((entry("Cuisine")["added"] as? [[String: Any]])?.map { $0["primaryKey"] as? Int } == [900])
        let changed = try #require(entry("Recipe")["changed"] as? [[String: Any]])
        #expect(changed.map { $0["primaryKey"] as? Int } == [3])
        let changes = try #require(changed.first?["changes"] as? [String: [String: Any]])
        #expect(Set(changes.keys) == ["minutes"] && changes["minutes"]?["to"] as? Int == 999)
        #expect(entry("Tag")["removed"] as? [Any] != nil && (entry("Tag")["removed"] as? [Any])?.isEmpty == true)
        let table = try CommandRunner.run(["diff", store, "--wal", "--entity", "Cuisine"])
        #expect(table.standardOutput == "Cuisine: 1 added, 0 removed, 0 changed\n  + p900  Martian\n1 difference\n", "\(table.standardOutput)\(table.standardError)")
        // Nothing was checkpointed, created or changed beside the store.
        let after = try Self.contents(of: folder)
        #expect(after == before, "files now: \(after.keys.sorted())")
    }

    @Test("a store with no -wal has no differences, and says why")
    func noWAL() throws {
        let store = try DiffCommandTests.copy(DiffCommandTests.recipes)
        let result = try CommandRunner.run(["diff", store, "--wal"])
        #expect(result.status == 0 && result.standardOutput.hasSuffix("no differences\n"), "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.contains("has no -wal with data"), "\(result.standardError)")
    }

    @Test("--wal takes one store, and without it two are needed")
    func arguments() throws {
        let store = try DiffCommandTests.copy(DiffCommandTests.recipes)
        let two = try CommandRunner.run(["diff", store, store, "--wal"])
        #expect(two.status != 0 && two.standardError.contains("--wal compares one store with its own -wal"), "\(two.standardError)")
        let one = try CommandRunner.run(["diff", store])
        #expect(one.status != 0 && one.standardError.contains("give two stores to compare, or one store and --wal"), "\(one.standardError)")
    }
}
