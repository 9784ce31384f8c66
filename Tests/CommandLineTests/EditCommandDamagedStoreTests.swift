import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata insert`, `set` and `delete` on Apple's own store and on stores whose counters are damaged: the edit is
/// written, or refused with a line saying what is wrong with which row, and the file is left as it was.
struct EditCommandDamagedStoreTests {
    private func store() throws -> String {
        let store = try TemporaryDirectory.make().appendingPathComponent("R.sqlite").path
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        #expect(try CommandRunner.run(["create", store, "--model", model]).status == 0)
        #expect(try CommandRunner.run(["insert", store, "Chef", "name=Ada"]).status == 0)
        return store
    }

    private func execute(_ path: String, _ sql: String) throws {
        try Connection(path: path, mode: .readWrite).execute(sql: sql)
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func deletingARecipeFromApplesStoreWorks() throws {
        let url = try Fixtures.copy("stores/apple-recipes-ios11/Recipes.sqlite")
        let result = try CommandRunner.run(["delete", url.path, "Recipe", "name == \"Recipe 2\"", "--yes"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("deleted 6 objects (1 matched, the rest by cascade); 1 related object updated"),
                "\(result.standardOutput)")
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT count(*) FROM ZRECIPE WHERE ZNAME = 'Recipe 2'") == [[.integer(0)]])
    }

    @Test func insertRefusesAPrimaryKeyCounterAtTheLargestInteger() throws {
        let path = try store()
        try execute(path, "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807 WHERE Z_NAME = 'Chef'")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CommandRunner.run(["insert", path, "Chef", "name=Bo"])
        #expect(result.status == 1)
        #expect(result.standardError == "coredata: error: Z_PRIMARYKEY's Z_MAX for Chef is 9223372036854775807: 1 more primary key(s) "
                + "would pass the largest integer (9223372036854775807); nothing was saved\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func setRefusesAVersionAtTheLargestInteger() throws {
        let path = try store()
        try execute(path, "UPDATE ZCHEF SET Z_OPT = 9223372036854775807")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CommandRunner.run(["set", path, "Chef", "TRUEPREDICATE", "name=Bo"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Chef x-coredata://") && result.standardError.contains("/Chef/p1: its version (Z_OPT) is 9223372036854775807"),
                "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(arguments: [("NULL", "NULL"), ("'x'", "the text \"x\""), ("1.5", "the real number 1.5")])
    func setNamesARowWhoseVersionIsNotAnInteger(value: String, shown: String) throws {
        let path = try store()
        try execute(path, "UPDATE ZCHEF SET Z_OPT = \(value)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CommandRunner.run(["set", path, "Chef", "TRUEPREDICATE", "name=Bo"])
        #expect(result.status == 1)
        #expect(result.standardError == "coredata: error: Chef row 1 of ZCHEF holds \(shown) as its version (Z_OPT), where Core Data "
                + "keeps an integer; the row is damaged and cannot be updated or deleted; nothing was saved\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
