import Foundation
import OpenCoreData
import Testing

/// `performAndWait` as a function value, as code written for Apple's platforms passes it (CoreDataPlus hands
/// `context.performAndWait` to a helper that takes an `(() -> Void) -> Void` and runs a throwing block through it).
struct PerformAndWaitFunctionValueTests {
    @Test func performAndWaitPassesAsAFunctionValueAndRunsTheBlockBeforeReturning() {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let run: (() -> Void) -> Void = context.performAndWait
        nonisolated(unsafe) var ran = false
        run { ran = true }
        #expect(ran, "the block ran before performAndWait returned")
    }

    @Test func aVoidBlockAndAResultBlockStillReadAsApplesCalls() {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        nonisolated(unsafe) var count = 0
        context.performAndWait { count += 1 }
        let result: Int = context.performAndWait { count + 1 }
        #expect(count == 1)
        #expect(result == 2)
    }
}
