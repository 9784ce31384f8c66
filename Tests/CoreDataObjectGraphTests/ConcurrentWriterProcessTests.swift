import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Several processes incrementing the same counters, each read-increment-save retried on optimistic-locking
/// conflicts: every conflict is reported (none is silently overwritten), so the final sum equals the increments made.
struct ConcurrentWriterProcessTests {
    static let helper = CrashSafetyTests.helper
    static let processes = 4, incrementsPerProcess = 40, counters = 2

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: helper.path), "StoreStressHelper is not built"))
    func processesIncrementingSharedCountersLoseNoUpdate() throws {
        let counter = NSEntityDescription(name: "Counter")
        counter.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType),
                               NSAttributeDescription(name: "value", type: .integer64AttributeType)])
        counter.ownProperties.forEach { $0.isOptional = true }
        let url = try TemporaryDirectory.make().appendingPathComponent("Counters.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: NSManagedObjectModel(entities: [counter]))
        let connection = try Connection(path: url.path, mode: .readWrite)
        for key in 1...Self.counters {
            try connection.execute(sql: "INSERT INTO ZCOUNTER (Z_PK, Z_ENT, Z_OPT, ZNAME, ZVALUE) VALUES (\(key), 1, 1, 'c\(key)', 0)")
        }
        try connection.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(Self.counters)")
        let runs = try (0..<Self.processes).map { worker in
            let process = Process()
            process.executableURL = Self.helper
            process.arguments = ["increment", url.path, "\(Self.incrementsPerProcess)", "\(worker)"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        var conflicts = 0
        for (process, output) in runs {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            conflicts += Int(text.split(separator: "=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        }
        let total = Self.processes * Self.incrementsPerProcess
        let (sum, versions) = try #require(try connection.query("SELECT sum(ZVALUE), sum(Z_OPT) FROM ZCOUNTER").first.map { ($0[0], $0[1]) })
        #expect(sum == .integer(Int64(total)), "lost updates: \(Int64(total) - (sum.int64Value ?? 0))")
        #expect(versions == .integer(Int64(total + Self.counters)), "one version per saved increment")
        #expect(try connection.integrityCheck() == ["ok"])
        // The figures for docs/RELIABILITY.md.
        print("concurrent writers: \(Self.processes) processes, \(total) increments, \(conflicts) conflicts detected and retried, "
              + "\(Int64(total) - (sum.int64Value ?? 0)) lost updates")
    }
}
