import CoreDataTestSupport
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
    static func write(_ path: String, synchronous: Bool = true, _ script: String) throws {
        let connection = try Connection(path: path, mode: .readWrite, busyTimeout: .seconds(5))
        if !synchronous { try connection.execute(sql: "PRAGMA synchronous = OFF") }
        try connection.inTransaction(.immediate) { try connection.execute(sql: script) }
    }

    /// A copy of the Earthquakes sample with 300,000 more quakes, made once (kept in the temporary directory under a
    /// name that changes with the sample and the generator) and copied for each test.
    static func bigEarthquakes(to path: String) throws {
        let template = try bigEarthquakesTemplate.get()
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: template, toPath: path)
    }

    static let bigQuakeCount = 300_000

    private static let bigEarthquakesTemplate: Result<String, any Error> = Result {
        let source = Fixtures.projectRoot.appendingPathComponent("SampleStores/Earthquakes/Earthquakes.sqlite").path
        let sourceSize = try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int ?? 0
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("opencoredata-browser-quakes-v1-\(sourceSize)-\(bigQuakeCount).sqlite").path
        if !FileManager.default.fileExists(atPath: path) {
            let building = path + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
            try? FileManager.default.removeItem(atPath: building)
            try FileManager.default.copyItem(atPath: source, toPath: building)
            try addQuakes(bigQuakeCount, to: building)
            _ = rename(building, path)  // atomic; another test process may have won the race with the same file
            try? FileManager.default.removeItem(atPath: building)
        }
        return path
    }

    /// Adds `count` quakes to an Earthquakes store copy in one transaction, with magnitudes, places and times
    /// spread deterministically, and advances `Z_PRIMARYKEY` as the library would.
    static func addQuakes(_ count: Int, to path: String) throws {
        try write(path, synchronous: false, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO ZQUAKE (Z_PK, Z_ENT, Z_OPT, ZREGION, ZDEPTH, ZLATITUDE, ZLONGITUDE, ZMAGNITUDE, ZTIME, ZCODE, ZPLACE)
            SELECT 2000 + i, 1, 1, 1 + i % 18, (i % 700) * 1.0, (i % 180) - 90.0, (i % 360) - 180.0,
                   ((i * 7919) % 90) / 10.0, 400000000.0 + i * 60, printf('gen%07d', i), printf('generated place %d', i)
            FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZQUAKE) WHERE Z_NAME = 'Quake';
            """)
    }
}
