import _FoundationICU
import Synchronization

/// One `MATCHES` pattern compiled by ICU, tested against whole strings under ``RegularExpressionLimits``.
///
/// ICU is called directly rather than through `NSRegularExpression` because Foundation gives no way to set the
/// backtracking limit or to learn that a match was abandoned: it reports "no match" either way.
final class CompiledRegularExpression: @unchecked Sendable {
    /// The pattern as written (before folding), for error messages.
    let pattern: String
    /// Owned; a `URegularExpression` is not thread-safe, so one caller at a time uses it (`inUse`) and any other
    /// concurrent caller matches on a clone.
    private let regex: OpaquePointer
    private let inUse = Atomic<Bool>(false)

    /// Compiles `compiledPattern` (`pattern` after any folding).
    init(pattern: String, compiledPattern: String, caseInsensitive: Bool) throws(PredicateEvaluationError) {
        self.pattern = pattern
        // ICU refuses an empty pattern; an empty group means the same. NUL-terminated so the buffer is never empty.
        let units = Array((compiledPattern.isEmpty ? "(?:)" : compiledPattern).utf16) + [0]
        var status = U_ZERO_ERROR
        var parseError = UParseError()
        let flags = caseInsensitive ? UREGEX_CASE_INSENSITIVE.rawValue : 0
        let opened = units.withUnsafeBufferPointer { buffer in
            swift_uregex_open(buffer.baseAddress!, Int32(clamping: buffer.count - 1), flags, &parseError, &status)
        }
        guard let opened, status.rawValue <= U_ZERO_ERROR.rawValue else {
            if let opened { swift_uregex_close(opened) }
            let name = String(cString: swift_u_errorName(status))
            throw PredicateEvaluationError(
                "invalid regular expression for MATCHES: \(pattern) (\(name) at offset \(parseError.offset))")
        }
        regex = opened
    }

    deinit { swift_uregex_close(regex) }

    /// What one match may spend, read by ICU's callback.
    private struct Budget {
        enum Limit { case none, steps, time }
        var deadline: ContinuousClock.Instant
        var blocks: Int32
        var exceeded = Limit.none
    }

    /// Whether the whole of `text` matches.
    ///
    /// - Throws: ``PredicateEvaluationError`` when the match exceeds ``RegularExpressionLimits``.
    func matches(_ text: String) throws(PredicateEvaluationError) -> Bool {
        if inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            defer { inUse.store(false, ordering: .releasing) }
            return try Self.matches(regex, text, pattern: pattern)
        }
        var status = U_ZERO_ERROR
        guard let clone = swift_uregex_clone(regex, &status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            throw PredicateEvaluationError("MATCHES could not prepare the regular expression \(pattern.debugDescription)")
        }
        defer { swift_uregex_close(clone) }
        return try Self.matches(clone, text, pattern: pattern)
    }

    private static func matches(_ regex: OpaquePointer, _ text: String, pattern: String) throws(PredicateEvaluationError) -> Bool {
        let units = Array(text.utf16) + [0]
        var budget = Budget(
            deadline: ContinuousClock.now.advanced(by: .nanoseconds(RegularExpressionLimits.deadlineNanoseconds)),
            blocks: RegularExpressionLimits.stepBlocks)
        var status = U_ZERO_ERROR
        let matched: Bool = units.withUnsafeBufferPointer { buffer in
            withUnsafeMutablePointer(to: &budget) { budgetPointer in
                swift_uregex_setStackLimit(regex, Int32(RegularExpressionLimits.backtrackingMemoryLimit), &status)
                // ICU calls back every 10,000 backtracking steps with the count of blocks so far; refusing to go on
                // there is how both limits are ours (ICU's own time limit counts the same blocks, but cannot say
                // which limit stopped it).
                swift_uregex_setMatchCallback(regex, { context, blocks in
                    guard let budget = context.map({ UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: Budget.self) })
                    else { return 1 }
                    if blocks >= budget.pointee.blocks {
                        budget.pointee.exceeded = .steps
                    } else if ContinuousClock.now >= budget.pointee.deadline {
                        budget.pointee.exceeded = .time
                    } else {
                        return 1
                    }
                    return 0
                }, budgetPointer, &status)
                swift_uregex_setText(regex, buffer.baseAddress!, Int32(clamping: buffer.count - 1), &status)
                let result = status.rawValue <= U_ZERO_ERROR.rawValue && swift_uregex_matches(regex, -1, &status) != 0
                // Neither the text nor the deadline is used after this call: the text is emptied, the callback removed.
                var cleanup = U_ZERO_ERROR
                swift_uregex_setText(regex, buffer.baseAddress!, 0, &cleanup)
                swift_uregex_setMatchCallback(regex, nil, nil, &cleanup)
                return result
            }
        }
        switch status {
        case U_ZERO_ERROR:
            return matched
        case U_REGEX_STOPPED_BY_CALLER, U_REGEX_TIME_OUT:
            let limit = budget.exceeded == .time
                ? "the time limit of \(RegularExpressionLimits.timeLimitDescription) (COREDATA_REGEX_TIME_LIMIT, "
                    + "RegularExpressionLimits.timeLimit)"
                : "the limit of \(RegularExpressionLimits.stepLimit) backtracking steps (COREDATA_REGEX_STEP_LIMIT, "
                    + "RegularExpressionLimits.stepLimit)"
            throw PredicateEvaluationError(
                "MATCHES gave up on the regular expression \(pattern.debugDescription): matching a string of "
                    + "\(text.count) characters exceeded \(limit)")
        case U_REGEX_STACK_OVERFLOW:
            throw PredicateEvaluationError(
                "MATCHES gave up on the regular expression \(pattern.debugDescription): matching a string of "
                    + "\(text.count) characters needed more than \(RegularExpressionLimits.backtrackingMemoryLimit >> 20) MiB "
                    + "of backtracking memory (RegularExpressionLimits.backtrackingMemoryLimit)")
        default:
            if status.rawValue < U_ZERO_ERROR.rawValue { return matched }  // a warning, not a failure
            throw PredicateEvaluationError(
                "MATCHES failed on the regular expression \(pattern.debugDescription): "
                    + String(cString: swift_u_errorName(status)))
        }
    }
}
