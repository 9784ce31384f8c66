import Foundation
import SQLiteDatabase

/// Reads and writes a store file with plain SQL, independently of the browser and the library, so tests can check
/// what the browser shows against the file itself and play "another process" writing the store.
enum StoreFile {
    /// The rows of `sql` on a fresh read-only connection.
    static func rows(_ path: String, _ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let connection = try Connection(path: path, mode: .readOnly)
        return try connection.query(sql, arguments: arguments)
    }

    /// The first column of the first row of `sql`.
    static func scalar(_ path: String, _ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        try rows(path, sql, arguments).first?.first
    }

    static func integer(_ path: String, _ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int {
        Int(try scalar(path, sql, arguments)?.int64Value ?? -1)
    }

    static func text(_ path: String, _ sql: String, _ arguments: [SQLiteValue] = []) throws -> String? {
        try scalar(path, sql, arguments)?.stringValue
    }

    /// Runs `script` in one transaction on a read-write connection of its own, as another process would.
    static func write(_ path: String, _ script: String) throws {
        let connection = try Connection(path: path, mode: .readWrite, busyTimeout: .seconds(5))
        try connection.inTransaction(.immediate) { try connection.execute(sql: script) }
    }

    /// Adds `count` quakes to an Earthquakes store copy in one transaction, with magnitudes, places and times
    /// spread deterministically, and advances `Z_PRIMARYKEY` as the library would.
    static func addQuakes(_ count: Int, to path: String) throws {
        try write(path, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO ZQUAKE (Z_PK, Z_ENT, Z_OPT, ZREGION, ZDEPTH, ZLATITUDE, ZLONGITUDE, ZMAGNITUDE, ZTIME, ZCODE, ZPLACE)
            SELECT 2000 + i, 1, 1, 1 + i % 18, (i % 700) * 1.0, (i % 180) - 90.0, (i % 360) - 180.0,
                   ((i * 7919) % 90) / 10.0, 400000000.0 + i * 60, printf('gen%07d', i), printf('generated place %d', i)
            FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZQUAKE) WHERE Z_NAME = 'Quake';
            """)
    }
}
