import Foundation
import Predicates
import Testing

@Suite("Generated input")
struct GeneratedInputTests {
    private static let fragments = [
        "a", "b.c", "==", "=", "!=", "<", ">=", "AND", "OR", "NOT", "&&", "!", "(", ")", "{", "}", "[", "]", ",", ".",
        "'x'", "\"y\"", "1", "2.5", "0x1F", "1e3", "$v", "@count", "@sum", "ANY", "ALL", "NONE", "SUBQUERY", "TERNARY",
        "CAST", "FUNCTION", "+", "-", "*", "/", "**", "BETWEEN", "IN", "CONTAINS", "LIKE", "MATCHES", "BEGINSWITH",
        "[cd]", "[c]", "%@", "%K", "%d", "%%", "sum:", "now", "'", "\"", "\\", "#", "é", "😀", "\u{0}", "SELF", "nil",
        "TRUEPREDICATE", ":", ":=", "FIRST", "SIZE", "UNION", " ", " ", "\n", "by:", "count", "?", "$", "@", "%",
    ]

    private static func checkNoCrash(_ format: String) {
        let arguments: [Any?] = ["key", 1, "text", 2.5, [1, 2], nil, "k.l", 3, "m", 4]
        do {
            let predicate = try PredicateParser.parsePredicate(format, arguments: arguments)
            let reparsed = try PredicateParser.parsePredicate(predicate.predicateFormat)
            #expect(reparsed == predicate, "\(format) → \(predicate.predicateFormat)")
        } catch {
            // Typed throws: every failure is a PredicateSyntaxError.
            #expect(error.offset >= 0 && error.offset <= format.utf8.count, "\(error)")
            #expect(!error.expected.isEmpty && !error.found.isEmpty)
            #expect(!error.caretDiagnostic.isEmpty)
        }
    }

    @Test("Token soup never crashes or hangs; what parses round-trips", arguments: 0..<8)
    func tokenSoup(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<400 {
            let count = Int.random(in: 0..<24, using: &generator)
            Self.checkNoCrash((0..<count).map { _ in generator.pick(Self.fragments) }.joined(separator: generator.pick(["", " "])))
        }
    }

    @Test("Random bytes never crash or hang", arguments: 0..<4)
    func randomBytes(seed: UInt64) {
        var generator = SeededGenerator(seed: 1000 + seed)
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            Self.checkNoCrash(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("Random syntax trees print to a format that parses back to the same tree", arguments: 0..<8)
    func printedTreesRoundTrip(seed: UInt64) throws {
        var trees = RandomSyntaxTree(generator: SeededGenerator(seed: 7_000 + seed))
        for _ in 0..<150 {
            let predicate = trees.predicate(depth: 4)
            let format = predicate.predicateFormat
            let reparsed = try PredicateParser.parsePredicate(format)
            #expect(reparsed == predicate, "\(format)\n→ \(reparsed.predicateFormat)")
        }
    }

    @Test("Mutations of valid predicates are parsed or rejected cleanly", arguments: 0..<4)
    func mutatedPredicates(seed: UInt64) {
        var generator = SeededGenerator(seed: 9_000 + seed)
        for _ in 0..<300 {
            var bytes = Array(generator.pick(allCanonicalCases).0.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(generator.pick(Array("()'\"[]{}%$@#\\,".utf8)), at: position)
                default: bytes.swapAt(position, Int.random(in: 0..<bytes.count, using: &generator))
                }
            }
            Self.checkNoCrash(String(decoding: bytes, as: UTF8.self))
        }
    }
}
