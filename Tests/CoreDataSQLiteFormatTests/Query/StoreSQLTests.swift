import CoreDataModel
import CoreDataSQLiteFormat
import Predicates
import SQLiteDatabase
import Testing

/// The statements the store runs, as `StoreSQL` writes them: the entity filter's two policies, the fetch, count,
/// window and write statements in Core Data's SQL style, and the join-table side of relationships whose inverse
/// shares their name.
struct StoreSQLTests {
    /// Item (abstract) ← Book, Magazine in one table; Reader ←→ Book many-to-many; Shelf alone.
    private static func model() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item"), book = NSEntityDescription(name: "Book")
        let magazine = NSEntityDescription(name: "Magazine"), reader = NSEntityDescription(name: "Reader")
        item.isAbstract = true
        book.superentityName = "Item"
        magazine.superentityName = "Item"
        let readers = NSRelationshipDescription(name: "readers", destinationEntityName: "Reader")
        readers.inverseRelationshipName = "books"
        readers.maxCount = 0
        let books = NSRelationshipDescription(name: "books", destinationEntityName: "Book")
        books.inverseRelationshipName = "readers"
        books.maxCount = 0
        item.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        book.setProperties([NSAttributeDescription(name: "isbn", type: .stringAttributeType), readers])
        magazine.setProperties([NSAttributeDescription(name: "issue", type: .integer64AttributeType)])
        reader.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), books])
        return NSManagedObjectModel(entities: [item, book, magazine, reader])
    }

    @Test func theEntityFilterIsDecidedOnceWithTwoPolicies() {
        let sql = StoreSQL(model: Self.model())
        let numbering = sql.layout.numbering
        let item = numbering.range(of: "Item")!, book = numbering["Book"]!
        #expect(sql.entityFilter(alias: "t0", entityName: "Item", policy: .wholeTreeToo)
                == "t0.Z_ENT BETWEEN \(item.lowerBound) AND \(item.upperBound)")
        #expect(sql.entityFilter(alias: "t0", entityName: "Item", policy: .narrowerOnly) == nil)
        #expect(sql.entityFilter(alias: "t0", entityName: "Item", includesSubentities: false, policy: .narrowerOnly)
                == "t0.Z_ENT = \(item.lowerBound)")
        for policy in [StoreSQL.EntityFilterPolicy.wholeTreeToo, .narrowerOnly] {
            #expect(sql.entityFilter(alias: "d", entityName: "Book", policy: policy) == "d.Z_ENT = \(book)")
            #expect(sql.entityFilter(alias: "t0", entityName: "Reader", policy: policy) == nil)
        }
        // The compiler's own fetches use the same filter.
        let count = try? sql.compiler.fetch(entityName: "Book", predicate: nil, selection: .count)
        #expect(count?.sql == "SELECT COUNT(*) FROM ZITEM t0 WHERE t0.Z_ENT = \(book)")
    }

    @Test func fetchCountWindowAndWritesKeepCoreDataStyle() throws {
        let sql = StoreSQL(model: Self.model())
        let book = sql.layout.numbering["Book"]!
        let predicate = NSPredicate(format: "title == %@", "Dune").predicateNode
        let fetch = try sql.fetch(entityName: "Book", predicate: predicate,
                                  sortDescriptors: [Predicates.NSSortDescriptor(key: "isbn", ascending: false)],
                                  includesSubentities: true, limit: 10, offset: 5)
        // Strings sort with the evaluator's comparison.
        let isbn = StoreSQL.column(sql.layout.columns(forProperty: "isbn", ofEntity: "Book")!.value, alias: "t0") + " COLLATE ocd_compare"
        let title = StoreSQL.column(sql.layout.columns(forProperty: "title", ofEntity: "Book")!.value, alias: "t0")
        #expect(fetch.select(["t0.Z_PK"])
                == "SELECT t0.Z_PK FROM ZITEM t0 WHERE t0.Z_ENT = \(book) AND (\(title) = ?) ORDER BY \(isbn) DESC, t0.Z_PK ASC LIMIT 10 OFFSET 5")
        #expect(fetch.bindings == [.text("Dune")])
        #expect(fetch.count()
                == "SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM ZITEM t0 WHERE t0.Z_ENT = \(book) AND (\(title) = ?) LIMIT 10 OFFSET 5)")
        let window = fetch.window(["t0.Z_PK"], start: .beyond(keys: [.text("978")], primaryKey: 7, after: true), limit: 20)
        #expect(window.sql == "SELECT t0.Z_PK, \(isbn) FROM ZITEM t0 WHERE t0.Z_ENT = \(book) AND (\(title) = ?) AND "
                + "(((\(isbn) < ? OR \(isbn) IS NULL)) OR (\(isbn) IS ? AND t0.Z_PK > ?)) ORDER BY \(isbn) DESC, t0.Z_PK ASC LIMIT 20")
        #expect(window.bindings == [.text("Dune"), .text("978"), .text("978"), .integer(7)] && !window.reversed)
        // Walking up an ascending sort, the first column's range is said outright, so its index is searched in order;
        // and a sort by bytes (BINARY) replaces the collation in every term.
        let ascending = try sql.fetch(entityName: "Book", predicate: nil,
                                      sortDescriptors: [Predicates.NSSortDescriptor(key: "isbn", ascending: true)], includesSubentities: true)
        let up = ascending.window(["t0.Z_PK"], start: .beyond(keys: [.text("978")], primaryKey: 7, after: true), limit: 20)
        #expect(up.sql == "SELECT t0.Z_PK, \(isbn) FROM ZITEM t0 WHERE t0.Z_ENT = \(book) AND (\(isbn) >= ? AND "
                + "((\(isbn) > ?) OR (\(isbn) IS ? AND t0.Z_PK > ?))) ORDER BY \(isbn) ASC, t0.Z_PK ASC LIMIT 20")
        #expect(up.bindings == [.text("978"), .text("978"), .text("978"), .integer(7)])
        #expect(ascending.compareSortedColumns.map(\.column) == ["ZISBN"])
        let bytes = ascending.sortingBinary(terms: [0])
        #expect(bytes.orderBy() == " ORDER BY t0.ZISBN ASC, t0.Z_PK ASC")
        // A sort column already selected is not selected again: the boundary is read from where it is.
        let first = bytes.window(["t0.Z_PK", "t0.ZISBN"], start: .offset(0), limit: 20)
        #expect(first.sql == "SELECT t0.Z_PK, t0.ZISBN FROM ZITEM t0 WHERE t0.Z_ENT = \(book) ORDER BY t0.ZISBN ASC, t0.Z_PK ASC LIMIT 20")
        #expect(first.keyColumns == [1])
        #expect(up.keyColumns == [1])

        let table = try #require(sql.layout.table(forEntity: "Book"))
        #expect(sql.insert(into: table, columns: ["ZTITLE"]) == "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (?, ?, ?, ?)")
        #expect(sql.update(table, columns: ["ZTITLE"]) == "UPDATE ZITEM SET ZTITLE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?")
        #expect(sql.delete(from: table) == "DELETE FROM ZITEM WHERE Z_PK = ? AND Z_OPT = ?")
        #expect(sql.rowsByKey(table: table, selectList: ["t0.Z_PK"], count: 3) == "SELECT t0.Z_PK FROM ZITEM t0 WHERE t0.Z_PK IN (?, ?, ?)")
        // A name that is not a plain identifier is quoted wherever it appears.
        #expect(sql.columns(["Z WEIRD"], ofRowIn: table) == #"SELECT "Z WEIRD" FROM ZITEM WHERE Z_PK = ?"#)
    }

    @Test func joinSidesFollowTheSideNotTheName() throws {
        let sql = StoreSQL(model: Self.model())
        let join = try #require(sql.layout.joinTables.first)
        let fromBook = try #require(sql.joinSides(relationshipName: "readers", entityName: "Book"))
        let fromReader = try #require(sql.joinSides(relationshipName: "books", entityName: "Reader"))
        #expect(fromBook.mine == fromReader.theirs && fromBook.theirs == fromReader.mine)
        #expect([fromBook.mine, fromBook.theirs].sorted() == [join.sourceKeyColumn, join.destinationKeyColumn].sorted())
        // Deleting a book removes the join rows holding its key; a magazine has none.
        #expect(sql.joinRowDeletes(entityName: "Book") == ["DELETE FROM \(join.name) WHERE \(fromBook.mine) = ?"])
        #expect(sql.joinRowDeletes(entityName: "Magazine").isEmpty)
    }
}
