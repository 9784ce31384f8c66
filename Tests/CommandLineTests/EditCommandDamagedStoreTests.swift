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

/// `coredata query` through relationships whose keys lead to a row of another entity or to no row: one clear line
/// naming the object, the key path and the row, never a crash or an empty value.
struct QueryCommandBrokenReferenceTests {
    private func library(_ damage: String) throws -> String {
        let path = try TemporaryDirectory.make().appendingPathComponent("L.sqlite").path
        try FileManager.default.copyItem(atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Library/Library.sqlite").path, toPath: path)
        try Connection(path: path, mode: .readWrite).execute(sql: damage)
        return path
    }

    @Test func aBookThatIsAMagazine() throws {
        let path = try library("UPDATE Z_1BOOKS SET Z_3BOOKS = 2 WHERE Z_1AUTHORS = 1")
        for extra in [[], ["--prefetch", "books"]] {
            let result = try CommandRunner.run(["query", path, "Author", "--keys", "name,books.isbn"] + extra)
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains("Author p1's relationship books refers to row 2 of ZITEM, which is of entity Magazine, not Book"),
                    "\(result.standardError)")
        }
    }

    @Test func keysLeadingToNoRow() throws {
        let path = try library("UPDATE Z_1BOOKS SET Z_3BOOKS = 9999 WHERE Z_1AUTHORS = 1; UPDATE ZITEM SET ZSHELF = 777 WHERE Z_PK = 3")
        let books = try CommandRunner.run(["query", path, "Author", "--keys", "name,books.isbn"])
        #expect(books.status == 1 && books.standardError.contains("refers to row 9999 of ZITEM, which does not exist"), "\(books.standardError)")
        let shelf = try CommandRunner.run(["query", path, "Book", "--keys", "title,shelf.name"])
        #expect(shelf.status == 1 && shelf.standardError.contains("shelf.name of x-coredata://")
                && shelf.standardError.contains("/Book/p3: CoreData could not fulfill a fault for"), "\(shelf.standardError)")
        #expect(shelf.standardError.contains("there is no row 777 in ZSHELF"))
    }
}

/// `coredata set`, `insert` and `delete` on a store that records persistent history: refused with the reason before
/// anything is asked or written; reading still works. (`browse --edit` opens it read-only: `BrowserRecoveryTests`.)
struct EditCommandHistoryStoreTests {
    @Test func editsOfAStoreRecordingHistoryAreRefused() throws {
        let store = try TemporaryDirectory.make().appendingPathComponent("R.sqlite").path
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        #expect(try CommandRunner.run(["create", store, "--model", model]).status == 0)
        #expect(try CommandRunner.run(["insert", store, "Chef", "name=Ada"]).status == 0)
        let connection = try Connection(path: store, mode: .readWrite)
        try connection.execute(sql: "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY); CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY)")
        let before = try connection.query("SELECT * FROM ZCHEF") + connection.query("SELECT * FROM Z_PRIMARYKEY")
        let expected = "coredata: error: \(store) records persistent history (tables ATRANSACTION, ACHANGE), which OpenCoreData does not "
            + "write yet; like Apple's Core Data opening it without history tracking, it is read-only: it cannot be edited\n"
        for arguments in [["set", store, "Chef", "TRUEPREDICATE", "name=Bo"], ["insert", store, "Chef", "name=Bo"],
                          ["delete", store, "Chef", "TRUEPREDICATE", "--yes"]] {
            let result = try CommandRunner.run(arguments)
            #expect(result.status == 1 && result.standardError == expected, "\(arguments[0]): \(result.standardError)")
        }
        #expect(try connection.query("SELECT * FROM ZCHEF") + connection.query("SELECT * FROM Z_PRIMARYKEY") == before)
        #expect(try CommandRunner.run(["query", store, "Chef", "--keys", "name"]).standardOutput.contains("Ada"))
    }
}
