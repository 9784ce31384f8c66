import CoreDataTestSupport
import Foundation
import Testing

/// Atomic stores replace their file whole (issue 18, item 9): a child process (StoreStressHelper `atomic-saves`) saves a
/// custom atomic store whose file grows by a megabyte a save, and is killed with SIGKILL at seeded moments while a save
/// is under way. The file must then be whole: the last complete save's, or (killed after the rename, before the child
/// said so) the save under way's, never a mix or a cut. The file is checked here, independently of the store's reader.
///
/// OCD_ATOMIC_KILLS sets how many kills must land during a save (default 6); OCD_SEED the seed (default 18).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashSafetyTests.helper.path), "StoreStressHelper is not built"))
struct AtomicSaveKillTests {
    static let kills = ProcessInfo.processInfo.environment["OCD_ATOMIC_KILLS"].flatMap(Int.init) ?? 6
    static let seed = ProcessInfo.processInfo.environment["OCD_SEED"].flatMap(UInt64.init) ?? 18

    /// The number of objects a whole file holds; nil when it is not a whole file of the helper's format.
    static func objectCount(_ data: Data) -> Int? {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == "MEGABYTE-LINES 1", lines.count >= 3, lines.last == "" else { return nil }
        let trailer = lines[lines.count - 2]
        let objects = lines[1..<(lines.count - 2)]
        guard trailer == "END \(objects.count) \(data.count - trailer.utf8.count - 1)" else { return nil }
        for (index, line) in objects.enumerated() {
            // "REF<TAB>SAVE PAYLOAD": object K was added by save K, with a payload of exactly one megabyte.
            guard line.hasPrefix("\(index + 1)\t\(index + 1) "), line.utf8.count == "\(index + 1)\t\(index + 1) ".utf8.count + 1_048_576 else {
                return nil
            }
        }
        return objects.count
    }

    @Test func aSaveKilledHalfWayLeavesTheOldFileWhole() throws {
        var random = SeededRandom(seed: Self.seed)
        var attempts = 0, duringSave = 0, newFileWon = 0, leftovers = 0
        while duringSave < Self.kills && attempts < Self.kills * 4 {
            attempts += 1
            let directory = try TemporaryDirectory.make()
            let url = directory.appendingPathComponent("store.lines")
            let target = 2 + Int(random.next(below: 5))
            let delay = useconds_t(random.next(below: 30_000))
            let process = Process()
            process.executableURL = CrashSafetyTests.helper
            process.arguments = ["atomic-saves", url.path, "40"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("saving \(target)\n") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen.append(chunk)
            }
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
            seen.append(output.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            let lines = String(decoding: seen, as: UTF8.self).split(separator: "\n")
            let lastSaved = lines.compactMap { $0.hasPrefix("saved ") ? Int($0.dropFirst(6)) : nil }.max() ?? 0
            let lastSaving = lines.compactMap { $0.hasPrefix("saving ") ? Int($0.dropFirst(7)) : nil }.max() ?? 0
            #expect(process.terminationReason == .uncaughtSignal, "the child ended by itself: \(lines.suffix(3))")
            let data = try Data(contentsOf: url)
            let where_ = "attempt \(attempts): a kill \(delay) µs into save \(target), last complete save \(lastSaved)"
            let count = try #require(Self.objectCount(data), "\(where_): the file is not whole (\(data.count) bytes)")
            leftovers += try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }.count
            guard lastSaving > lastSaved else { continue }  // the kill came between saves
            duringSave += 1
            #expect(count == lastSaved || count == lastSaving, "killed during save \(lastSaving): the file holds \(count) objects")
            if count == lastSaving { newFileWon += 1 }
        }
        #expect(duringSave >= Self.kills, "only \(duringSave) of \(attempts) kills landed during a save")
        print("atomic save kills: seed \(Self.seed): \(duringSave) kills during a save (of \(attempts) runs), the old file whole in "
              + "\(duringSave - newFileWon), the new one (renamed, not yet reported) in \(newFileWon); \(leftovers) temporary files left beside "
              + "the store by killed saves")
    }
}
