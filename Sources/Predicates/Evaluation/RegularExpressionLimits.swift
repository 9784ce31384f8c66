import Synchronization

/// The bounds on the work one `MATCHES` comparison may do.
///
/// ICU's backtracking engine, which evaluates `MATCHES`, can take exponential time on some patterns
/// (`((a|aa)+c|a+b)` against forty `a`s and a `b`). Left alone, ICU abandons such a match after a while
/// (about 39 million backtracking steps for that pattern) and answers "no match", which is wrong. Instead each
/// match runs under these limits, and a match that exceeds one fails with a ``PredicateEvaluationError`` naming
/// the pattern, in memory and in SQL (where the fetch fails) alike:
///
/// - ``stepLimit``: backtracking steps, 10 million by default (about a quarter of a second). It makes the outcome
///   the same on every machine and stops matches well before the point where ICU gives up silently.
/// - ``timeLimit``: wall-clock time, one second by default, for a machine so loaded that the steps run slowly.
/// - ``backtrackingMemoryLimit``: the memory of ICU's backtracking stack, 256 MiB by default.
///
/// ```swift
/// RegularExpressionLimits.stepLimit = 30_000_000   // a pattern known to be heavy
/// RegularExpressionLimits.timeLimit = .seconds(5)
/// ```
///
/// The `coredata` tool sets them from the `COREDATA_REGEX_STEP_LIMIT` and `COREDATA_REGEX_TIME_LIMIT` (seconds)
/// environment variables. A step limit above about 30 million may let ICU's own silent cut-off win again.
public enum RegularExpressionLimits {
    /// The default time limit: one second for a single string against a single pattern.
    public static let defaultTimeLimit: Duration = .seconds(1)

    /// The default step limit: ten million backtracking steps.
    public static let defaultStepLimit = 10_000_000

    /// The default backtracking memory limit, in bytes.
    public static let defaultBacktrackingMemoryLimit = 256 << 20

    private static let timeLimitNanoseconds = Atomic<Int64>(nanoseconds(defaultTimeLimit))
    private static let memoryLimit = Atomic<Int>(defaultBacktrackingMemoryLimit)
    private static let steps = Atomic<Int>(defaultStepLimit)

    /// Limits set for the current task by ``withLimits(stepLimit:timeLimit:_:)``, which win over the shared ones.
    private struct Scoped: Sendable {
        var steps: Int?
        var timeNanoseconds: Int64?
    }
    @TaskLocal private static var scoped = Scoped()

    /// Runs `body` with these limits for the current task only (and the synchronous work it does, SQL functions
    /// included); other tasks and threads keep the shared limits. A `nil` limit keeps the current one.
    public static func withLimits<T>(stepLimit: Int? = nil, timeLimit: Duration? = nil, _ body: () throws -> T) rethrows -> T {
        var limits = scoped
        if let stepLimit { limits.steps = clampedSteps(stepLimit) }
        if let timeLimit { limits.timeNanoseconds = max(nanoseconds(timeLimit), 1_000_000) }
        return try $scoped.withValue(limits, operation: body)
    }

    private static func clampedSteps(_ value: Int) -> Int { min(max(value, 10_000), Int(Int32.max) * 10_000) }

    /// The most backtracking steps one `MATCHES` test may take; more fail with an error. ICU counts in blocks of
    /// 10,000 steps, so the limit is rounded up to a multiple of 10,000 (at least 10,000, at most 2³¹ blocks).
    public static var stepLimit: Int {
        get { scoped.steps ?? steps.load(ordering: .relaxed) }
        set { steps.store(clampedSteps(newValue), ordering: .relaxed) }
    }

    /// ``stepLimit`` in ICU's blocks of 10,000 steps.
    static var stepBlocks: Int32 { Int32((stepLimit + 9_999) / 10_000) }

    /// The longest one `MATCHES` test (one string against one pattern) may run; a longer one fails with an
    /// error. Shared by every thread; values below one millisecond are taken as one millisecond.
    public static var timeLimit: Duration {
        get { .nanoseconds(deadlineNanoseconds) }
        set { timeLimitNanoseconds.store(max(nanoseconds(newValue), 1_000_000), ordering: .relaxed) }
    }

    /// The most memory, in bytes, one match may use for its backtracking stack; a match that needs more fails
    /// with an error. Clamped to 1 MiB … 2 GiB − 1.
    public static var backtrackingMemoryLimit: Int {
        get { memoryLimit.load(ordering: .relaxed) }
        set { memoryLimit.store(min(max(newValue, 1 << 20), Int(Int32.max)), ordering: .relaxed) }
    }

    /// The time limit as a short English phrase, for error messages: "1 s", "250 ms".
    static var timeLimitDescription: String {
        let nanos = deadlineNanoseconds
        if nanos % 1_000_000_000 == 0 { return "\(nanos / 1_000_000_000) s" }
        return "\(nanos / 1_000_000) ms"
    }

    static var deadlineNanoseconds: Int64 { scoped.timeNanoseconds ?? timeLimitNanoseconds.load(ordering: .relaxed) }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        if seconds >= Int64.max / 1_000_000_000 { return Int64.max / 2 }
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
