import Foundation
import OpenCoreData

/// Creates the benchmark stores: an empty store exactly as Core Data would lay it out (`SQLiteStoreCreator`), then
/// rows written by plain SQL, because the write half of the library does not exist yet and because generating
/// millions of rows through contexts would measure saves, not reads.
///
/// Stores are kept between runs in the temporary directory, named by their content (model checksum, rows, seed),
/// so a second run, or the quick run after the full one, does not spend a minute regenerating 10 million rows.
struct StoreFactory {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("OpenCoreDataBenchmarks", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The store named `name` holding `rows` rows of `model`, filled by `fill` when it does not exist yet.
    func store(_ name: String, rows: Int, model: NSManagedObjectModel,
               fill: (RawDatabase, StoreLayout) throws -> Void) throws -> URL {
        let checksum = String(model.versionChecksum.filter { $0.isLetter || $0.isNumber }.prefix(10))
        let url = directory.appendingPathComponent("\(name)-\(rows)-\(checksum).sqlite")
        let marker = url.appendingPathExtension("complete")
        if FileManager.default.fileExists(atPath: marker.path) { return url }

        // A store without its marker was interrupted: start again.
        for leftover in [url, marker, url.appendingPathExtension("-wal"), url.appendingPathExtension("-shm")] {
            try? FileManager.default.removeItem(at: leftover)
        }
        let start = ContinuousClock.now
        print("  generating \(url.lastPathComponent)…", terminator: "")
        fflush(nil)
        _ = try SQLiteStoreCreator.createStore(at: url, model: model)
        let database = try RawDatabase(path: url.path, readOnly: false)
        // The file is scratch data: no journal and no fsync while filling it.
        try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try database.execute("BEGIN")
        try fill(database, StoreLayout(model: model))
        for entity in model.entities {
            guard let name = entity.name, let table = StoreLayout(model: model).table(forEntity: name) else { continue }
            try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT ifnull(max(Z_PK), 0) FROM \(table.name)) WHERE Z_NAME = '\(name)'")
        }
        try database.execute("COMMIT")
        // Fresh statistics let SQLite plan as it would on a long-lived store.
        try database.execute("ANALYZE")
        _ = FileManager.default.createFile(atPath: marker.path, contents: Data())
        print(" \(String(format: "%.1f", (ContinuousClock.now - start).seconds)) s")
        return url
    }
}

/// A small, fast generator with a fixed seed (SplitMix64), so every run generates the same data.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
