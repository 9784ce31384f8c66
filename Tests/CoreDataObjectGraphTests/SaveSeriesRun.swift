import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Runs StoreStressHelper's `saves` series (Tests/StoreStressHelper/SaveSeries.swift) in a child process and checks
/// what it leaves behind. The expected store after save J is written out here independently of the helper.
struct SaveSeriesRun {
    static let rowsPerSave = 3000
    static let saves = 3

    /// What the child printed and how it ended.
    struct Outcome {
        var output: String
        var errors: String
        var killed: Bool
        var status: Int32
        /// The last save the child reported complete (0: none).
        var lastReported: Int {
            output.split(separator: "\n").compactMap { $0.hasPrefix("saved ") ? Int($0.dropFirst(6)) : nil }.last ?? 0
        }
        /// `calls writes=… reads=… syncs=… injected=…` as numbers.
        var calls: [String: Int] {
            guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("calls ") }) else { return [:] }
            var result: [String: Int] = [:]
            for field in line.dropFirst(6).split(separator: " ") {
                let parts = field.split(separator: "=")
                if parts.count == 2, let value = Int(parts[1]) { result[String(parts[0])] = value }
            }
            return result
        }
    }

    /// A new words store for the series, in `mode`, in its own directory.
    static func makeStore(journalMode: Connection.JournalMode) throws -> URL {
        let word = NSEntityDescription(name: "Word")
        let blob = NSAttributeDescription(name: "blob", type: .binaryDataAttributeType)
        blob.allowsExternalBinaryDataStorage = true
        word.setProperties([NSAttributeDescription(name: "text", type: .stringAttributeType),
                            NSAttributeDescription(name: "length", type: .integer16AttributeType), blob])
        for property in word.ownProperties { property.isOptional = true }
        let url = try TemporaryDirectory.make().appendingPathComponent("Words.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: NSManagedObjectModel(entities: [word]))
        if journalMode != .wal {
            let connection = try Connection(path: url.path, mode: .readWrite)
            _ = try connection.setJournalMode(journalMode)
        }
        return url
    }

    /// Runs the series on `url` with `environment` (OCD_FAULT, OCD_FSIZE); when `killAfterFirstSave` is set, the
    /// parent sends SIGKILL that many microseconds after the child reports its first save.
    static func run(_ url: URL, environment: [String: String] = [:], killAfterFirstSave: useconds_t? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = CrashSafetyTests.helper
        process.arguments = ["saves", url.path, String(rowsPerSave), String(saves)]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var seen = Data()
        if let delay = killAfterFirstSave {
            while !String(decoding: seen, as: UTF8.self).contains("saved 1") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen.append(chunk)
            }
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
        }
        seen.append(output.fileHandleForReading.readDataToEndOfFile())
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(output: String(decoding: seen, as: UTF8.self), errors: errorText,
                       killed: process.terminationReason == .uncaughtSignal, status: process.terminationStatus)
    }

    /// Words per save tag with their smallest and largest length, as the store holds them after save `save`.
    static func expectedState(after save: Int) -> [String: [Int64]] {
        var state: [String: [Int64]] = [:]
        if save >= 1 { state["\(save)"] = [Int64(rowsPerSave), Int64(save % 100), Int64(save % 100)] }
        if save >= 2 { state["\(save - 1)"] = [Int64(rowsPerSave), Int64(100 + save % 100), Int64(100 + save % 100)] }
        return state
    }

    /// What was found in a store after a run.
    struct Check {
        var recoveredJournal: String?
        var save: Int?
        var orphanFiles = 0
    }

    /// Opens the store the way the tool does (which recovers an interrupted save), then checks that it is intact,
    /// holds exactly save `outcome.lastReported` or the one after it (a kill between commit and report), and that
    /// every external-data reference has its file with the right bytes. Returns what it found.
    static func check(_ url: URL, after outcome: Outcome, comment: Comment) throws -> Check {
        var check = Check()
        let file = try SQLiteStoreFile(path: url.path)
        check.recoveredJournal = file.recoveredJournal
        let connection = file.connection
        #expect(try connection.integrityCheck() == ["ok"], comment)
        var state: [String: [Int64]] = [:]
        for row in try connection.query(
            "SELECT substr(ZTEXT, 1, instr(ZTEXT, '-') - 1), count(*), min(ZLENGTH), max(ZLENGTH) FROM ZWORD GROUP BY 1") {
            state[row[0].stringValue ?? "?"] = [row[1].int64Value ?? -1, row[2].int64Value ?? -1, row[3].int64Value ?? -1]
        }
        let maximum = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Word'")?.int64Value ?? -1
        let candidates = [outcome.lastReported, outcome.lastReported + 1].filter { $0 <= saves }
        check.save = candidates.first { expectedState(after: $0) == state && maximum == Int64($0 * rowsPerSave) }
        #expect(check.save != nil, "\(comment): the store holds no complete save: \(state), Z_MAX \(maximum); reported \(outcome.lastReported)")
        // External data: no row without its file; files no row names are leftovers, counted.
        let directory = url.deletingLastPathComponent().appendingPathComponent(".Words_SUPPORT/_EXTERNAL_DATA")
        var referenced: Set<String> = []
        for row in try connection.query("SELECT ZTEXT, ZBLOB FROM ZWORD WHERE ZBLOB IS NOT NULL") {
            let text = row[0].stringValue ?? "", bytes = row[1].blobValue ?? []
            guard bytes.first == 2, bytes.last == 0 else {
                Issue.record("\(comment): \(text) holds its blob inline (\(bytes.count) bytes), not in a file")
                continue
            }
            let name = String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)
            referenced.insert(name)
            let contents = try? Data(contentsOf: directory.appendingPathComponent(name))
            let tag = UInt8((Int(text.prefix { $0 != "-" }) ?? 0) % 251)
            #expect(contents == Data(repeating: tag, count: 130 * 1024), "\(comment): \(text)'s external file \(name) is missing or wrong")
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        check.orphanFiles = files.filter { !referenced.contains($0) && !$0.hasPrefix(".") }.count
        return check
    }
}
