import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// Constants reach SQLite only as bindings: hostile strings never appear in the SQL text, and the table survives
/// every one of them.
@Suite("Query: constants are bound, never spliced")
struct QueryInjectionTests {
    static let hostile = [
        "O'Brien", "'; DROP TABLE ZPERSON; --", "'); DROP TABLE ZPERSON; --", "\"quoted\"", "a;b", "-- comment",
        "/* open comment", "*/", "x' OR '1'='1", "\u{0}nul", "?1", ":name", "$var", "@at",
    ]

    static let formats = [
        "name == %@", "name != %@", "name ==[cd] %@", "name BEGINSWITH %@", "name BEGINSWITH[c] %@",
        "name ENDSWITH %@", "name CONTAINS %@", "name LIKE %@", "name IN {%@, 'x'}", "ANY pets.name == %@",
        "employer.title < %@", "SUBQUERY(pets, $p, $p.name CONTAINS[n] %@).@count > 0",
    ]

    @Test(arguments: formats)
    func hostileStringsAreBindings(_ format: String) throws {
        let store = try QueryTestStore(personCount: 20)
        let compiler = PredicateSQLCompiler(model: store.model)
        for text in Self.hostile {
            let predicate = try Predicates.NSPredicate(parsing: format, argumentArray: [text])
            let query = try compiler.fetch(entityName: "Person", predicate: predicate)
            #expect(!query.sql.contains(text), "\(query.sql)")
            #expect(query.bindings.contains(.text(text)), "\(query.debugDescription)")
            _ = try store.rows(query)
        }
        #expect(try store.connection.scalar("SELECT COUNT(*) FROM ZPERSON") == .integer(20))
    }

    @Test func hostileStringsInTheFormatItselfAreBindingsToo() throws {
        let store = try QueryTestStore(personCount: 10)
        let predicate = try Predicates.NSPredicate(parsing: #"name == "'); DROP TABLE ZPERSON; --" OR name CONTAINS "/*""#)
        let query = try PredicateSQLCompiler(model: store.model).fetch(entityName: "Person", predicate: predicate)
        #expect(!query.sql.contains("DROP"))
        #expect(!query.sql.contains("/*"))
        #expect(query.bindings == [.text("'); DROP TABLE ZPERSON; --"), .text("/*")])
        #expect(try store.rows(query).isEmpty)
        #expect(try store.connection.scalar("SELECT COUNT(*) FROM ZPERSON") == .integer(10))
    }

    /// The Person and Student columns of ZPERSON, as the compiler lists them.
    static var personColumns: String {
        let layout = StoreLayout(model: QueryTestStore.makeModel())
        return layout.table(forEntity: "Person")!.columns.dropFirst(3).map { "t0." + $0.name }.joined(separator: ", ")
    }

    @Test func debugDescriptionListsTheBindings() throws {
        let model = QueryTestStore.makeModel()
        let predicate = try Predicates.NSPredicate(
            parsing: "name BEGINSWITH %@ AND born < %@ AND token == %@",
            argumentArray: ["Zo", Date(timeIntervalSinceReferenceDate: 86_400),
                            UUID(uuidString: "00000000-0000-4000-8000-0000000000ff")!])
        let query = try PredicateSQLCompiler(model: model).fetch(entityName: "Person", predicate: predicate)
        #expect(query.bindings == [
            .text("Zo"), .text("Zp"), .real(86_400), .blob([0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0xff]),
        ])
        #expect(query.debugDescription == #"""
            SQL(SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, \#(Self.personColumns) FROM ZPERSON t0 WHERE ((t0.ZNAME >= ? AND t0.ZNAME < ?) AND (t0.ZBORN < ?) AND (t0.ZTOKEN = ?)); bindings: [1: "Zo", 2: "Zp", 3: 86400.0, 4: x'000000000000400080000000000000ff'])
            """#)
    }
}

/// Names from an untrusted model (a store's model cache) are quoted when they are not plain identifiers.
@Suite("Query: hostile model names")
struct QueryHostileModelNameTests {
    @Test func oddPropertyNamesAreQuoted() throws {
        let hostile = #"x" = 1); DROP TABLE "ZTHING"; --"#
        let thing = NSEntityDescription(name: "Thing")
        thing.setProperties([NSAttributeDescription(name: hostile, type: .integer64AttributeType)])
        let model = NSManagedObjectModel(entities: [thing])
        let layout = StoreLayout(model: model)
        let column = try #require(layout.columns(forProperty: hostile, ofEntity: "Thing")?.value)
        let predicate = try Predicates.NSPredicate(parsing: "%K == 1", argumentArray: [hostile])
        let query = try PredicateSQLCompiler(model: model).fetch(entityName: "Thing", predicate: predicate)
        #expect(query.sql.contains("t0." + Connection.quoteIdentifier(column) + " = ?"), "\(query.sql)")

        let connection = try Connection.inMemory()
        try connection.execute(sql: "CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, "
            + Connection.quoteIdentifier(column) + " INTEGER)")
        try connection.execute(sql: "INSERT INTO ZTHING VALUES (1, 1, 1, 1), (2, 1, 1, 2)")
        #expect(try connection.query(query.sql, arguments: query.bindings).map { $0[0] } == [.integer(1)])
        #expect(try connection.scalar("SELECT COUNT(*) FROM ZTHING") == .integer(2))
    }
}
