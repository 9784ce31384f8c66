import CoreDataTestSupport
import Foundation
import Testing

/// The runner every command test uses must not deadlock on a child that writes much to standard error while its
/// standard output is still open (as `--sql-debug` on a large fetch does).
struct CommandRunnerPipeTests {
    @Test func aChildFillingStandardErrorBeforeItsOutputEndsIsReadWhole() throws {
        // The launcher form runs `sh -c SCRIPT sh coredata`; the script ignores the executable it is handed.
        let script = "head -c 300000 /dev/zero | tr '\\0' x >&2; echo done"
        let result = try CommandRunner.run([], launcher: ["/bin/sh", "-c", script, "sh"], timeout: .seconds(60))
        // Plain values, so a failure does not print the 300 KB of standard error.
        let (timedOut, status, output) = (result.timedOut, result.status, result.standardOutput)
        let errorBytes = Array(result.standardError.utf8)
        #expect(!timedOut, "the runner blocked on a full standard-error pipe until the hang guard killed the child")
        #expect(status == 0)
        #expect(output == "done\n")
        #expect(errorBytes.count == 300_000)
        #expect(errorBytes.allSatisfy { $0 == UInt8(ascii: "x") })
    }
}
