import Predicates
import Testing

/// MATCHES under ``RegularExpressionLimits``: a match that backtracks past the limit fails with an error naming
/// the pattern instead of answering "no match" (which ICU alone does once its backtracking stack fills).
@Suite("MATCHES time and memory limits", .serialized)
struct RegularExpressionLimitTests {
    /// Exponential backtracking: `(a|aa)+c` fails only after trying every split of the `a`s, then `a+b` matches.
    static let pattern = "((a|aa)+c|a+b)"
    static let heavy = String(repeating: "a", count: 40) + "b"

    @Test("A match stopped by the time limit throws, naming the pattern, in the evaluator")
    func evaluatorThrows() {
        let error = #expect(throws: PredicateEvaluationError.self) {
            try PredicateEvaluator.compare(.string(Self.heavy), .matches, .string(Self.pattern))
        }
        #expect(error?.reason.contains(#""((a|aa)+c|a+b)""#) == true)
        #expect(error?.reason.contains("the limit of 10000000 backtracking steps") == true)
    }

    @Test("A match stopped by the time limit throws in a prepared comparison (the SQL function's path)")
    func preparedThrows() throws {
        let prepared = try PreparedStringComparison(.matches, Self.pattern)
        #expect(throws: PredicateEvaluationError.self) { try prepared.evaluate(Self.heavy) }
        let bytes = Array(Self.heavy.utf8)
        #expect(throws: PredicateEvaluationError.self) {
            try bytes.withUnsafeBufferPointer { try prepared.evaluate(utf8: $0) }
        }
    }

    @Test("A heavy match inside the limits gives ICU's real answer, and lower limits stop it")
    func limitsAreSettable() throws {
        let moderate = String(repeating: "a", count: 22) + "b"
        #expect(try PredicateEvaluator.compare(.string(moderate), .matches, .string(Self.pattern)))
        #expect(RegularExpressionLimits.timeLimit == RegularExpressionLimits.defaultTimeLimit)
        #expect(RegularExpressionLimits.stepLimit == RegularExpressionLimits.defaultStepLimit)
        let longer = String(repeating: "a", count: 30) + "b"

        // Scoped to this test's task: the shared limits other tests run under stay as they are.
        let stepError = #expect(throws: PredicateEvaluationError.self) {
            try RegularExpressionLimits.withLimits(stepLimit: 100_000) {
                try PredicateEvaluator.compare(.string(longer), .matches, .string(Self.pattern))
            }
        }
        #expect(stepError?.reason.contains("the limit of 100000 backtracking steps") == true)

        // The time limit alone: a step budget this large is never reached before one millisecond passes.
        let timeError = #expect(throws: PredicateEvaluationError.self) {
            try RegularExpressionLimits.withLimits(stepLimit: 1_000_000_000_000, timeLimit: .milliseconds(1)) {
                try PredicateEvaluator.compare(.string(longer), .matches, .string(Self.pattern))
            }
        }
        #expect(timeError?.reason.contains("the time limit of 1 ms") == true)
    }

    @Test("Ordinary matches, case-insensitive and folded ones, and invalid patterns behave as before")
    func ordinaryMatches() throws {
        #expect(try PredicateEvaluator.compare(.string("Ann"), .matches, .string("A|Ann")))
        #expect(try !PredicateEvaluator.compare(.string("Ann"), .matches, .string("A|An")))
        #expect(try PredicateEvaluator.compare(.string("ANN"), .matches, .string("ann"), options: .caseInsensitive))
        #expect(try PredicateEvaluator.compare(.string("Zürich"), .matches, .string("zur\\w+"), options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(try PredicateEvaluator.compare(.string(""), .matches, .string("")))
        #expect(try !PredicateEvaluator.compare(.string("a"), .matches, .string("")))
        #expect(try PredicateEvaluator.compare(.string("a\nb"), .matches, .string("a\\nb")))
        #expect(try !PredicateEvaluator.compare(.string("ab"), .matches, .string("a")))
        #expect(throws: PredicateEvaluationError.self) {
            try PredicateEvaluator.compare(.string("x"), .matches, .string("("))
        }
    }
}
