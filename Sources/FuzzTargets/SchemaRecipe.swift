import Foundation
import PropertyListCoding
import SQLiteDatabase

/// An SQLite schema (and a few rows) described by bytes, for fuzzing model inference: every byte sequence is a
/// valid description, and mutating the bytes changes the entities, tables, columns, types, indexes, join tables
/// and values. Names come from Core Data's vocabulary (`Z_PK`, `Z<NAME>`, `Z_<n><REL>`, `Z_FOK_…`) mixed with
/// arbitrary text, so inputs look enough like stores to reach the inference past its first checks.
public struct SchemaRecipe {
    /// The statements and their arguments that build the store.
    public private(set) var statements: [(sql: String, arguments: [SQLiteValue])] = []

    public init(_ bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        let entityCount = Int(reader.next() % 6) + 1
        var entities: [(number: Int, name: String, superNumber: Int)] = []
        for number in 1...entityCount {
            let name = reader.choose(Self.entityNames) ?? reader.text()
            let superNumber = number > 1 && reader.next() % 3 == 0 ? Int(reader.next()) % (number - 1) + 1 : 0
            entities.append((number, name, superNumber))
        }
        // Z_PRIMARYKEY, usually well formed.
        if reader.next() % 16 != 0 {
            statements.append(("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)", []))
            for entity in entities {
                statements.append(("INSERT OR IGNORE INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)",
                                   [.integer(Int64(entity.number)), .text(entity.name), .integer(Int64(entity.superNumber)),
                                    reader.value()]))
            }
        }
        // Z_METADATA with a plist that is usually a dictionary.
        statements.append(("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)", []))
        statements.append(("INSERT INTO Z_METADATA VALUES (1, ?, ?)", [.text("FUZZ-UUID"), Self.metadata(&reader)]))
        // One table per root entity (and sometimes a stray one), with Core Data's key columns and some others.
        var tableNames: [String] = []
        for entity in entities where entity.superNumber == 0 || reader.next() % 8 == 0 {
            let tableName = reader.next() % 10 == 0 ? reader.text() : "Z" + entity.name.uppercased()
            tableNames.append(tableName)
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"].filter { _ in reader.next() % 12 != 0 }
            var columnNames: [String] = []
            for _ in 0..<Int(reader.next() % 7) {
                let name = Self.columnName(&reader)
                columnNames.append(name)
                columns.append(Connection.quoteIdentifier(name) + " " + (reader.choose(Self.types) ?? reader.text()))
            }
            if columns.isEmpty { columns = ["Z_PK INTEGER PRIMARY KEY"] }
            statements.append(("CREATE TABLE IF NOT EXISTS \(Connection.quoteIdentifier(tableName)) (\(columns.joined(separator: ", ")))", []))
            for column in columnNames where reader.next() % 3 == 0 {
                // The index name inference looks for: <TABLE>_<COLUMN>_INDEX.
                let index = "\(tableName)_\(column)_INDEX"
                statements.append(("CREATE INDEX IF NOT EXISTS \(Connection.quoteIdentifier(index)) ON "
                                   + "\(Connection.quoteIdentifier(tableName)) (\(Connection.quoteIdentifier(column)))", []))
            }
            for _ in 0..<Int(reader.next() % 4) {
                let names = ["Z_ENT", "Z_OPT"] + columnNames
                let values = names.map { name in name == "Z_ENT" ? SQLiteValue.integer(Int64(reader.next() % 8)) : reader.value() }
                statements.append(("INSERT INTO \(Connection.quoteIdentifier(tableName)) (\(names.map(Connection.quoteIdentifier).joined(separator: ", "))) "
                                   + "VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))", values))
            }
        }
        // Join tables: Z_<n><REL> with Z_<n><REL> and Z_<m><INVERSE> columns.
        for _ in 0..<Int(reader.next() % 3) {
            let first = Int(reader.next()) % (entityCount + 1), second = Int(reader.next()) % (entityCount + 1)
            let relationship = reader.choose(Self.words) ?? reader.text(), inverse = reader.choose(Self.words) ?? reader.text()
            let table = "Z_\(first)\(relationship.uppercased())"
            var columns = ["Z_\(first)\(relationship.uppercased()) INTEGER", "Z_\(second)\(inverse.uppercased()) INTEGER"]
            if reader.next() % 4 == 0 { columns.append("Z_FOK_\(first)\(relationship.uppercased()) INTEGER") }
            statements.append(("CREATE TABLE IF NOT EXISTS \(Connection.quoteIdentifier(table)) (\(columns.joined(separator: ", ")))", []))
        }
        if reader.next() % 8 == 0 {
            statements.append(("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)", []))
        }
    }

    /// Writes the schema into a new SQLite file at `path` (which must not exist). Statements SQLite refuses (a
    /// duplicate column name, a type it cannot parse) are skipped: the recipe describes a store, not a script.
    public func write(to path: String) throws(SQLiteError) {
        let connection = try Connection(path: path, mode: .create, busyTimeout: .seconds(1))
        // A scratch file: no journal, no syncs, one transaction (each fuzz input writes a store).
        try connection.execute(sql: "PRAGMA journal_mode = OFF")
        try connection.execute(sql: "PRAGMA synchronous = OFF")
        try connection.execute(sql: "BEGIN")
        for statement in statements {
            try? connection.execute(sql: statement.sql, arguments: statement.arguments)
        }
        try connection.execute(sql: "COMMIT")
    }

    static let entityNames = ["Recipe", "Chef", "Item", "Book", "Magazine", "Author", "A", "B", "Straße", "na\"me", "x y",
                              "Z", "_", "Entity1", "ÉCOLE", "日本", "a\u{1B}[31m", "Z_PK", "PRIMARYKEY"]
    static let words = ["NAME", "BOOKS", "AUTHORS", "CHEF", "RECIPES", "ITEMS", "SHELF", "PARENT", "CHILDREN", "X", "ß",
                        "WITH SPACE", "QU\"OTE", "A\\B", "1", ""]
    static let types = ["INTEGER", "VARCHAR", "TIMESTAMP", "FLOAT", "BLOB", "DECIMAL", "", "TEXT", "REAL",
                        "INTEGER NOT NULL DEFAULT 0", "VARCHAR DEFAULT 'x'", "NUMERIC", "BOOLEAN"]

    static func columnName(_ reader: inout ByteReader) -> String {
        let word = reader.choose(words) ?? reader.text()
        switch reader.next() % 6 {
        case 0: return "Z\(reader.next() % 10)_\(word)"
        case 1: return "Z_FOK_\(word)"
        case 2: return reader.text()
        default: return "Z\(word)"
        }
    }

    static func metadata(_ reader: inout ByteReader) -> SQLiteValue {
        switch reader.next() % 16 {
        case 0: return .blob(reader.bytes(Int(reader.next() % 32)))
        case 1: return .null
        case 2: return .text(reader.text())
        default:
            let dictionary: PropertyListValue = .dictionary([
                "NSStoreType": .string("SQLite"), "NSStoreUUID": .string("FUZZ-UUID"),
                "NSPersistenceFrameworkVersion": .integer(Int64(reader.next()) * 8),
                "NSStoreModelVersionIdentifiers": .array([.string(reader.text())]),
            ])
            return .blob(Array((try? PropertyList.write(dictionary, format: .binary)) ?? Data()))
        }
    }
}

/// Reads a fuzz input as a stream of choices; past the end every byte reads as 0.
struct ByteReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in next() } }

    /// One of `options`, or nil (about one time in eight) when the caller should make up text instead.
    mutating func choose(_ options: [String]) -> String? {
        let byte = next()
        return byte % 8 == 7 ? nil : options[Int(byte) % options.count]
    }

    /// Up to 12 bytes as text (invalid UTF-8 repaired).
    mutating func text() -> String {
        String(decoding: bytes(Int(next() % 13)), as: UTF8.self)
    }

    /// A column value of any storage class.
    mutating func value() -> SQLiteValue {
        switch next() % 6 {
        case 0: .null
        case 1: .integer(Int64(bitPattern: UInt64(next()) << 56 | UInt64(next()) << 8 | UInt64(next())))
        case 2: .real(Double(Int8(bitPattern: next())) / 3)
        case 3: .text(text())
        case 4: .blob(bytes(Int(next() % 9)))
        default: .integer(Int64(next()))
        }
    }
}
