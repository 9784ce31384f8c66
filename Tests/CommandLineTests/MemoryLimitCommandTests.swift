import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata set` on 60,000 objects under address-space limits (`ulimit -v`, RLIMIT_AS) from too small to enough.
/// Swift cannot recover from a failed allocation (the runtime stops the process with "failed to allocate"), so
/// the guarantee tested is the store's: whatever the limit, the change is all or nothing, the store opens and
/// passes `integrity_check`, and a command that exits 0 changed everything (docs/DEVIATIONS.md).
// The sanitizers reserve terabytes of shadow address space, so no `ulimit -v` lets a sanitized binary start.
@Suite(.disabled(if: SanitizedRun.sanitizer != nil, "ulimit -v cannot apply to a sanitized build"))
struct MemoryLimitCommandTests {
    static let rows = 60_000

    static func bigLibrary() throws -> String {
        let path = try TemporaryDirectory.make().appendingPathComponent("Library.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Library/Library.sqlite").path, toPath: path)
        let connection = try Connection(path: path, mode: .readWrite)
        let first = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'")?.int64Value ?? 0
        let book = try connection.scalar("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'")?.int64Value ?? 0
        try connection.execute(sql: """
            WITH RECURSIVE n(i) AS (SELECT \(first + 1) UNION ALL SELECT i + 1 FROM n WHERE i < \(first + Int64(rows)))
            INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZPAGECOUNT, ZPUBLISHED, ZNORMALIZEDTITLE, ZTITLE, ZISBN)
            SELECT i, \(book), 1, 100, 0, 'title ' || i, 'Title ' || i, '9780000000000' FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = \(first + Int64(rows)) WHERE Z_NAME = 'Item';
            """)
        return path
    }

    @Test func aLargeSetUnderAMemoryLimitIsAllOrNothing() throws {
        let template = try Self.bigLibrary()
        let total = try Connection(path: template, mode: .readOnly).scalar("SELECT count(*) FROM ZITEM")?.int64Value ?? 0
        var outcomes: [String] = []
        for limit in [100_000, 140_000, 180_000, 240_000, 320_000, 2_000_000] {
            let store = try TemporaryDirectory.make().appendingPathComponent("Library.sqlite").path
            try FileManager.default.copyItem(atPath: template, toPath: store)
            let launcher = ["/bin/sh", "-c", "ulimit -v \(limit) && exec \"$@\"", "sh"]
            let result = try CommandRunner.run(["set", store, "Item", "TRUEPREDICATE", "title=Changed", "--yes"], launcher: launcher)
            let connection = try Connection(path: store, mode: .readOnly)
            #expect(try connection.integrityCheck() == ["ok"], "ulimit -v \(limit)")
            let changed = try connection.scalar("SELECT count(*) FROM ZITEM WHERE ZTITLE = 'Changed'")?.int64Value ?? -1
            #expect(changed == 0 || changed == total, "ulimit -v \(limit): \(changed) of \(total) changed: \(result.standardError.prefix(300))")
            if result.status == 0 { #expect(changed == total, "ulimit -v \(limit): exit 0 but \(changed) of \(total) changed") }
            let how = result.status == 0 ? "exit 0"
                : result.standardError.contains("failed to allocate") ? "runtime allocation failure (exit \(result.status))"
                : "exit \(result.status): \(result.standardError.split(separator: "\n").first ?? "")"
            outcomes.append("\(limit) KB: \(how), \(changed == 0 ? "nothing" : "all") changed")
        }
        #expect(outcomes.last?.contains("exit 0") == true, "enough memory: the change goes through")
        print("RLIMIT_AS runs of set on \(total) objects: " + outcomes.joined(separator: "; "))
    }
}
