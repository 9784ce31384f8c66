import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Synchronization
import Testing

/// Issue 21, item 3: a text sort may run with SQLite's `BINARY` collation (and so through an index) only on texts where
/// the bytes order exactly as `NSSortDescriptor`'s `compare:` does. These property tests prove the claim the store
/// relies on: every text ``BinaryTextOrder`` accepts (ASCII without NUL) orders by its bytes as Foundation orders
/// it, and the test rejects every text with anything else (combining marks, precomposed and decomposed letters,
/// astral characters, the U+FFFF vicinity, NUL, bytes that are not UTF-8).
@Suite("Query: BINARY order where it equals compare:'s")
struct BinaryTextOrderTests {
    static let asciiPieces = ["a", "b", "e", "f", "z", "A", "B", "E", "Z", "0", "9", " ", "\t", "\n", "~", "_", "-", ".",
                              "\u{1}", "\u{1F}", "\u{7F}", "ab", "AB", "aB"]
    static let otherPieces = ["\0", "é", "e\u{301}", "\u{301}", "\u{308}", "a\u{308}", "ä", "Å", "A\u{30A}", "\u{212B}",
                              "ß", "ss", "ﬁ", "İ", "ı", "😀", "\u{1D11E}", "\u{10000}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}",
                              "\u{FFEF}", "\u{E000}", "가", "\u{1100}\u{1161}", "\u{FF21}", "\u{345}", "\u{80}", "\u{A0}"]

    /// A random text: often ASCII only, else with adversarial pieces; sometimes empty; often sharing `prefix`.
    static func randomText(_ random: inout SeededRandom, prefix: String) -> String {
        let pieces = random.next(below: 2) == 0 ? asciiPieces : asciiPieces + otherPieces
        var text = random.next(below: 3) == 0 ? "" : prefix
        for _ in 0..<Int(random.next(below: 6)) { text += pieces[Int(random.next(below: UInt64(pieces.count)))] }
        return text
    }

    /// What the claim covers, decided independently of SQL: every byte ASCII and none NUL.
    static func isPlainASCII(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy { (1...0x7F).contains($0) } }

    static func hex(_ text: String) -> String { text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }

    @Test("The check accepts exactly the ASCII texts without NUL, including texts that are not UTF-8")
    func checkAcceptsExactlyPlainASCII() throws {
        let connection = try Connection.inMemory()
        try PredicateSQLFunctions.register(on: connection)
        let sql = "SELECT \(BinaryTextOrder.mayDisagree("?1"))"
        var random = SeededRandom(seed: 0x21_B1_4A)
        var accepted = 0, rejected = 0
        for _ in 0..<5_000 {
            let text = Self.randomText(&random, prefix: "ab")
            let flagged = try #require(try connection.query(sql, arguments: [.text(text)]).first?.first?.int64Value) == 1
            #expect(flagged == !Self.isPlainASCII(text.utf8), "\(Self.hex(text))")
            if flagged { rejected += 1 } else { accepted += 1 }
        }
        #expect(accepted > 1_000 && rejected > 1_000, "\(accepted) accepted, \(rejected) rejected")
        // Text that is not UTF-8 (an encoded surrogate, a lone continuation byte, a truncated sequence): rejected.
        // SQLite's own length() counts the stray bytes as characters; the check must not.
        for bytes: [UInt8] in [[0xED, 0xA0, 0x80], [0x61, 0x80], [0x61, 0xC3], [0xFF, 0xFE], [0xEF, 0xBF, 0xBF], [0x61, 0x00, 0x62],
                               [0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            let flagged = try connection.query("SELECT \(BinaryTextOrder.mayDisagree("CAST(?1 AS TEXT)"))", arguments: [.blob(bytes)])
            #expect(flagged.first?.first?.int64Value == 1, "\(bytes)")
        }
        // Numbers, blobs and NULL never make a column unsafe: they sort by type before any text, under any collation.
        for value: SQLiteValue in [.integer(7), .real(2.5), .blob([0xFF, 0x00]), .null] {
            let flagged = try connection.query("SELECT \(BinaryTextOrder.mayDisagree("?1")) IS 1", arguments: [value])
            #expect(flagged.first?.first?.int64Value == 0, "\(value)")
        }
    }

    @Test("On 30,000 seeded pairs of accepted texts BINARY's <, = and > are the descriptor's; on the rejected ones they are not")
    func acceptedPairsAgree() throws {
        let connection = try Connection.inMemory()
        let sql = "SELECT ?1 < ?2, ?1 = ?2"  // BINARY: SQLite's default collation
        let descriptor = Predicates.NSSortDescriptor(key: nil, ascending: true)
        var random = SeededRandom(seed: 0x21_B1_4A_1)
        var checked = 0, disagreementsOutside = 0
        while checked < 30_000 {
            let prefix = Self.randomText(&random, prefix: "")
            let (left, right) = (Self.randomText(&random, prefix: prefix), Self.randomText(&random, prefix: prefix))
            let row = try #require(try connection.query(sql, arguments: [.text(left), .text(right)]).first)
            let less = row[0].int64Value == 1, equal = row[1].int64Value == 1
            let binary: ComparisonResult = less ? .orderedAscending : (equal ? .orderedSame : .orderedDescending)
            let expected = descriptor.compare(left, to: right)
            guard Self.isPlainASCII(left.utf8), Self.isPlainASCII(right.utf8) else {
                if binary != expected { disagreementsOutside += 1 }
                continue
            }
            checked += 1
            #expect(binary == expected, "\(Self.hex(left)) vs \(Self.hex(right))")
            if binary != expected { break }
        }
        // The check is needed: outside the class the byte order does disagree ("é" after "f", "e\u{301}" ≠ "é").
        #expect(disagreementsOutside > 100, "\(disagreementsOutside)")
        #expect(descriptor.compare("é", to: "f") == .orderedAscending && "é".utf8.first! > "f".utf8.first!)
    }

    @Test("An indexed column of accepted texts: the check passes, ORDER BY walks the index, in the descriptor's order both ways")
    func indexedColumnSortsAsTheDescriptor() throws {
        let connection = try Connection.inMemory()
        try PredicateSQLFunctions.register(on: connection)
        try connection.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, s VARCHAR); CREATE INDEX t_s ON t (s COLLATE BINARY ASC)")
        var random = SeededRandom(seed: 0x21_B1_4A_2)
        var texts: [(id: Int64, text: String?)] = []
        try connection.execute(sql: "BEGIN")
        for id in Int64(1)...4_000 {
            var text: String? = Self.randomText(&random, prefix: "ab")
            if !Self.isPlainASCII(text!.utf8) { text = id % 7 == 0 ? nil : String(text!.unicodeScalars.filter { (1...0x7F).contains($0.value) }) }
            texts.append((id, text))
            try connection.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [.integer(id), text.map { .text($0) } ?? .null])
        }
        try connection.execute(sql: "COMMIT; ANALYZE")
        #expect(try connection.query(BinaryTextOrder.checkSQL(table: "t", column: "s")).first?.first?.int64Value == 1)

        let descriptor = Predicates.NSSortDescriptor(key: nil, ascending: true)
        func precedes(_ a: (id: Int64, text: String?), _ b: (id: Int64, text: String?)) -> Bool {
            // NULL first, as SQLite and the descriptor both order it; ties by id, as the store's Z_PK term.
            switch (a.text, b.text) {
            case (nil, nil): return a.id < b.id
            case (nil, _): return true
            case (_, nil): return false
            case let (left?, right?):
                switch descriptor.compare(left, to: right) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: return a.id < b.id
                }
            }
        }
        let expected = texts.sorted(by: precedes).map(\.id)
        for (order, ids) in [("s COLLATE BINARY, id", expected), ("s COLLATE BINARY DESC, id DESC", expected.reversed())] {
            let sql = "SELECT id FROM t ORDER BY \(order) LIMIT 4000"
            let plan = try connection.query("EXPLAIN QUERY PLAN " + sql).compactMap { $0.last?.stringValue }.joined(separator: "; ")
            #expect(plan.contains("USING COVERING INDEX t_s") && !plan.contains("TEMP B-TREE"), "\(plan)")
            #expect(try connection.query(sql).compactMap { $0[0].int64Value } == Array(ids))
        }

        // A table that declares a collation is left to the compare: collation, whatever its texts.
        try connection.execute(sql: "CREATE TABLE u (s VARCHAR COLLATE NOCASE); CREATE INDEX u_s ON u (s); INSERT INTO u VALUES ('a'), ('B')")
        #expect(try connection.query(BinaryTextOrder.checkSQL(table: "u", column: "s")).first?.first?.int64Value == 0)
        // One text outside the class and the column no longer passes.
        try connection.execute(sql: "UPDATE t SET s = 'e\u{301}' WHERE id = 5")
        #expect(try connection.query(BinaryTextOrder.checkSQL(table: "t", column: "s")).first?.first?.int64Value == 0)
        // The column is read only when the table passes.
        let reads = Mutex(0)
        try connection.createRawFunction(name: BinaryTextOrder.functionName, argumentCount: 1, deterministic: true) { _ in
            reads.withLock { $0 += 1 }
            return .integer(1)
        }
        #expect(try connection.query(BinaryTextOrder.checkSQL(table: "u", column: "s")).first?.first?.int64Value == 0)
        #expect(reads.withLock { $0 } == 0)
        #expect(try connection.query(BinaryTextOrder.checkSQL(table: "t", column: "s")).first?.first?.int64Value == 1)
        #expect(reads.withLock { $0 } == 4_000)
    }
}
