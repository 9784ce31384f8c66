import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// A save interrupted by SIGKILL or by a full disk leaves the store valid and holding the previous save.
struct CrashSafetyTests {
    static let helper = Fixtures.projectRoot.appendingPathComponent(".build/debug/StoreStressHelper")

    static func wordsStore() throws -> URL {
        let word = NSEntityDescription(name: "Word")
        word.setProperties([NSAttributeDescription(name: "text", type: .stringAttributeType),
                            NSAttributeDescription(name: "length", type: .integer16AttributeType)])
        for property in word.ownProperties { property.isOptional = true }
        let url = try TemporaryDirectory.make().appendingPathComponent("Words.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: NSManagedObjectModel(entities: [word]))
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute(sql: "INSERT INTO ZWORD (Z_PK, Z_ENT, Z_OPT, ZTEXT, ZLENGTH) VALUES (1, 1, 1, 'kept', 4); UPDATE Z_PRIMARYKEY SET Z_MAX = 1")
        return url
    }

    private func state(_ url: URL) throws -> (integrity: String, words: Int64, maximum: Int64) {
        let connection = try Connection(path: url.path, mode: .readOnly)
        return (try connection.integrityCheck().joined(), try connection.scalar("SELECT count(*) FROM ZWORD")!.int64Value!,
                try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY")!.int64Value!)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: helper.path), "StoreStressHelper is not built"))
    func sigkillDuringALargeSaveKeepsThePreviousSave() throws {
        let url = try Self.wordsStore()
        let process = Process()
        process.executableURL = Self.helper
        process.arguments = ["large-save", url.path, "300000"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Wait for the save to begin, then kill the process in the middle of it.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("saving") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        usleep(150_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the save was still running when killed")
        let after = try state(url)
        #expect(after.integrity == "ok")
        #expect(after.words == 1 && after.maximum == 1, "nothing of the interrupted save, all of the previous one")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: helper.path), "StoreStressHelper is not built"))
    func aFullDiskFailsTheSaveAndChangesNothing() throws {
        let url = try Self.wordsStore()
        let before = try Data(contentsOf: url)
        let process = Process()
        process.executableURL = Self.helper
        process.arguments = ["full-disk", url.path, "20000", "262144"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(text.contains("failed"))
        #expect(try Data(contentsOf: url) == before, "the store file is byte-identical")
        let after = try state(url)
        #expect(after.integrity == "ok" && after.words == 1)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: helper.path), "StoreStressHelper is not built"))
    func usingAContextOffItsQueueTrapsWithConcurrencyDebugging() throws {
        let url = try Self.wordsStore()
        let process = Process()
        process.executableURL = Self.helper
        process.arguments = ["off-queue", url.path, "0", "-com.apple.CoreData.ConcurrencyDebug", "1"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(message.contains("off the context's queue"))
    }

    /// Without the switch, as on Apple's platforms, a context used from the thread that made it is not checked.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: helper.path), "StoreStressHelper is not built"))
    func usingAContextOffItsQueueIsUncheckedByDefault() throws {
        let url = try Self.wordsStore()
        let process = Process()
        process.executableURL = Self.helper
        process.arguments = ["off-queue", url.path, "0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("not trapped"))
    }
}
