import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata create`, `insert`, `set` and `delete` through the real executable.
struct EditCommandTests {
    private func rows(_ path: String, _ sql: String) throws -> [[SQLiteValue]] {
        try Connection(path: path, mode: .readOnly).query(sql)
    }

    @Test func createInsertSetDeleteOnOurOwnStore() throws {
        let store = try TemporaryDirectory.make().appendingPathComponent("R.sqlite").path
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        #expect(try CommandRunner.run(["create", store, "--model", model]).status == 0)
        #expect(try CommandRunner.run(["create", store, "--model", model]).standardError.contains("refusing to overwrite"))
        let chef = try CommandRunner.run(["insert", store, "Chef", "name=Ada", "email=ada@example.com"])
        #expect(chef.status == 0, "\(chef.standardError)")
        #expect(chef.standardOutput.hasSuffix("/Chef/p1\n"))
        let recipe = try CommandRunner.run(["insert", store, "Recipe", "name=Soup", "normalizedName=soup", "created=2024-05-01",
                                            "identifier=00000000-0000-0000-0000-000000000001", "chef=p1", "minutes=20"])
        #expect(recipe.status == 0, "\(recipe.standardError)")
        let invalid = try CommandRunner.run(["insert", store, "Recipe", "name=Broken"])
        #expect(invalid.status == 1 && invalid.standardError.contains("nothing was saved") && invalid.standardError.contains("identifier is required"))
        let toMany = try CommandRunner.run(["insert", store, "Chef", "name=Bo", "recipes=p1"])
        #expect(toMany.status == 1 && toMany.standardError.contains("Chef.recipes is a to-many relationship: set it from the other side (Recipe.chef)"),
                "\(toMany.standardError)")
        let manyToMany = try CommandRunner.run(["insert", store, "Recipe", "name=X", "tags=p1"])
        #expect(manyToMany.status == 1 && manyToMany.standardError.contains("Recipe.tags is a to-many relationship, which this command cannot set"),
                "\(manyToMany.standardError)")
        let set = try CommandRunner.run(["set", store, "Recipe", "name == 'Soup'", "minutes=25"])
        #expect(set.status == 0 && set.standardOutput.contains("minutes: 20 → 25"), "\(set.standardOutput)\(set.standardError)")
        #expect(try rows(store, "SELECT ZMINUTES, Z_OPT FROM ZRECIPE")[0] == [.integer(25), .integer(2)])
        let deleted = try CommandRunner.run(["delete", store, "Chef", "TRUEPREDICATE"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(try rows(store, "SELECT ZCHEF FROM ZRECIPE")[0] == [.null], "nullify")
        #expect(try rows(store, "PRAGMA integrity_check")[0] == [.text("ok")])
    }

    @Test func createRefusesUnknownStoreTypesAndMemory() throws {
        let directory = try TemporaryDirectory.make()
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        let unknown = try CommandRunner.run(["create", directory.appendingPathComponent("R.x").path, "--model", model, "--type", "csv"])
        #expect(unknown.status == 2, "an unknown type is a usage error")
        #expect(unknown.standardError.contains("csv") && unknown.standardError.contains("--type"), "\(unknown.standardError)")
        let memory = try CommandRunner.run(["create", directory.appendingPathComponent("R.m").path, "--model", model, "--type", "memory"])
        #expect(memory.status == 2 && memory.standardError.contains("keeps no file"), "\(memory.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let sqlite = directory.appendingPathComponent("R.sqlite").path
        #expect(try CommandRunner.run(["create", sqlite, "--model", model, "--type", "sqlite"]).status == 0)
    }

    @Test func severalObjectsNeedConfirmation() throws {
        let store = try TemporaryDirectory.make().appendingPathComponent("R.sqlite").path
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        _ = try CommandRunner.run(["create", store, "--model", model])
        for name in ["A", "B"] { _ = try CommandRunner.run(["insert", store, "Tag", "label=\(name)"]) }
        let refused = try CommandRunner.run(["set", store, "Tag", "TRUEPREDICATE", "label=X"])
        #expect(refused.status == 1 && refused.standardError.contains("--yes"))
        #expect(try rows(store, "SELECT ZLABEL FROM ZTAG ORDER BY Z_PK").map { $0[0] } == [.text("A"), .text("B")])
        #expect(try CommandRunner.run(["set", store, "Tag", "TRUEPREDICATE", "label=X", "--yes"]).status == 0)
        #expect(try rows(store, "SELECT ZLABEL FROM ZTAG").map { $0[0] } == [.text("X"), .text("X")])
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
    func appleStoreRoundTripKeepsApplesFormat() throws {
        let store = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite").path
        let schemaBefore = try Connection(path: store, mode: .readOnly).schemaStatements()
        let metadataBefore = try rows(store, "SELECT Z_UUID, Z_PLIST FROM Z_METADATA")
        let set = try CommandRunner.run(["set", store, "Car", "numberPlate == '170'", "maker=Tesla"])
        #expect(set.status == 0, "\(set.standardError)")
        let person = try CommandRunner.run(["insert", store, "Person", "firstName=Grace", "lastName=Hopper",
                                            "id=00000000-0000-0000-0000-0000000000AA", "updatedAt=2024-01-01"])
        #expect(person.status == 0, "\(person.standardError)")
        #expect(person.standardOutput.hasSuffix("/Person/p21\n"), "Z_MAX was 20")
        let car = try CommandRunner.run(["insert", store, "ExpensiveSportCar", "numberPlate=NEW-1", "isLimitedEdition=true"])
        #expect(car.standardOutput.hasSuffix("/ExpensiveSportCar/p126\n"), "the root's Z_MAX (125) numbers the whole tree")
        let deleted = try CommandRunner.run(["delete", store, "Car", "numberPlate == '159'"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(try rows(store, "SELECT ZMAKER, Z_OPT FROM ZCAR WHERE ZNUMBERPLATE = '170'")[0][0] == .text("Tesla"))
        #expect(try rows(store, "SELECT Z_OPT FROM ZCAR WHERE ZNUMBERPLATE = '170'")[0][0].int64Value! >= 2)
        #expect(try rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { $0[0] } == [.integer(126), .integer(0), .integer(0), .integer(21)])
        #expect(try rows(store, "SELECT Z_ENT FROM ZCAR WHERE Z_PK = 126")[0][0] == .integer(3))
        #expect(try Connection(path: store, mode: .readOnly).schemaStatements() == schemaBefore)
        #expect(try rows(store, "SELECT Z_UUID, Z_PLIST FROM Z_METADATA") == metadataBefore)
        #expect(try rows(store, "PRAGMA integrity_check")[0] == [.text("ok")])
        let schema = try CommandRunner.run(["schema", store])
        #expect(schema.standardOutput.contains("version hashes: match the store's metadata"))
    }

    /// A store file the user may not write: `set`, `insert` and `delete` each fail naming it, and the file stays
    /// byte-identical. Permissions do not bind root, so as root the commands run as `nobody` through `setpriv`.
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "neither unprivileged nor able to drop privileges with setpriv"))
    func aReadOnlyFileIsRefusedAndStaysByteIdentical() throws {
        let directory = try TemporaryDirectory.make()
        let store = directory.appendingPathComponent("R.sqlite").path
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        #expect(try CommandRunner.run(["create", store, "--model", model]).status == 0)
        #expect(try CommandRunner.run(["insert", store, "Tag", "label=A"]).status == 0)
        // The directory stays writable (SQLite may create its side files there); only the store file is read-only.
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        for arguments in [["set", store, "Tag", "label == 'A'", "label=B", "--yes"], ["insert", store, "Tag", "label=C"],
                          ["delete", store, "Tag", "label == 'A'", "--yes"]] {
            let result = try CommandRunner.run(arguments, launcher: launcher)
            #expect(result.status == 1, "\(arguments[0]): \(result.standardOutput)\(result.standardError)")
            #expect(result.standardError.contains(store) && result.standardError.contains("nothing was"), "\(result.standardError)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "\(arguments[0]) left the file byte-identical")
        }
        #expect(try rows(store, "SELECT ZLABEL FROM ZTAG").map { $0[0] } == [.text("A")])
    }
}
