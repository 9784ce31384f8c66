import Foundation
import Predicates

/// The `MATCHES` limits (``RegularExpressionLimits``) taken from the environment, for every subcommand and the
/// browser: `COREDATA_REGEX_TIME_LIMIT` in seconds (`2`, `0.5`) and `COREDATA_REGEX_STEP_LIMIT` in
/// backtracking steps.
enum RegularExpressionEnvironment {
    static let timeLimitVariable = "COREDATA_REGEX_TIME_LIMIT"
    static let stepLimitVariable = "COREDATA_REGEX_STEP_LIMIT"

    /// Applies the variables that are set; an unusable value is a usage error naming the variable.
    static func apply(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandFailure) {
        if let text = environment[timeLimitVariable] {
            guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds > 0,
                  seconds <= 86_400
            else {
                throw CommandFailure("\(timeLimitVariable) must be a number of seconds above 0 (at most 86400), not \(text.debugDescription)")
            }
            RegularExpressionLimits.timeLimit = .nanoseconds(Int64(seconds * 1e9))
        }
        if let text = environment[stepLimitVariable] {
            guard let steps = Int(text.trimmingCharacters(in: .whitespaces)), steps > 0 else {
                throw CommandFailure("\(stepLimitVariable) must be a whole number of steps above 0, not \(text.debugDescription)")
            }
            RegularExpressionLimits.stepLimit = steps
        }
    }
}
