import Foundation
import Predicates
import Testing

/// `PreparedStringComparison` gives the evaluator's result for every pair of strings: its ASCII byte path is
/// checked here against Foundation's comparisons (through `PredicateEvaluator.compare`), on every pair of ASCII
/// characters and on generated strings mixing ASCII with what folding treats specially.
@Suite("Prepared string comparisons")
struct PreparedStringComparisonTests {
    static let operators: [ComparisonOperator] = [
        .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .beginsWith,
        .endsWith, .contains, .like, .matches, .in,
    ]
    /// Every combination of `[c]`, `[d]` and `[n]`.
    static let optionSets = (0..<8).map { ComparisonOptions(rawValue: UInt($0)) }

    /// Both entry points of the prepared comparison, checked against the evaluator.
    static func check(
        _ text: String, _ operatorType: ComparisonOperator, _ constant: String, _ options: ComparisonOptions,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = try PredicateEvaluator.compare(.string(text), operatorType, .string(constant), options: options)
        let prepared = try PreparedStringComparison(operatorType, constant, options: options)
        let fromString = try prepared.evaluate(text)
        let fromBytes = try Array(text.utf8).withUnsafeBufferPointer { try prepared.evaluate(utf8: $0) }
        let described = "\(text.debugDescription) \(operatorType.formatSymbol)\(options.formatSuffix) \(constant.debugDescription)"
        #expect(fromString == expected, "String: \(described)", sourceLocation: sourceLocation)
        #expect(fromBytes == expected, "UTF-8: \(described)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [ComparisonOperator.equalTo, .lessThan, .beginsWith, .contains, .like, .in])
    func everyPairOfASCIICharactersAgrees(_ operatorType: ComparisonOperator) throws {
        let characters = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for options in [ComparisonOptions(), .caseInsensitive, [.caseInsensitive, .diacriticInsensitive], .normalized] {
            for left in characters {
                for right in characters {
                    try Self.check("x" + left, operatorType, right, options)
                    try Self.check(left, operatorType, right + "y", options)
                }
            }
        }
    }

    /// Units of the generated strings: ASCII (letters either side of the case gap, LIKE's metacharacters, NUL,
    /// CR, LF) and the characters folding treats specially (ß, İ, ı, the ﬁ ligature, the Kelvin sign, combining
    /// marks, precomposed letters, an emoji).
    static let units = [
        "a", "A", "b", "B", "i", "I", "s", "S", "z", "Z", "k", "e", "E", "_", "[", "`", "^", "~", "@", "*", "?",
        "\\", " ", "\0", "\r", "\n", "\r\n", "\t", "ß", "SS", "İ", "ı", "ﬁ", "fi", "\u{212A}", "\u{301}", "\u{308}",
        "é", "É", "e\u{301}", "Å", "😀", "ǅ",
    ]

    static func generatedString(_ generator: inout SeededGenerator, maximumUnits: Int) -> String {
        (0..<Int.random(in: 0...maximumUnits, using: &generator)).map { _ in generator.pick(units) }.joined()
    }

    @Test(arguments: operators)
    func generatedStringsAgree(_ operatorType: ComparisonOperator) throws {
        var generator = SeededGenerator(seed: 0x0C0D_0000 + UInt64(operatorType.rawValue))
        for _ in 0..<1_500 {
            let options = generator.pick(Self.optionSets)
            // Mostly ASCII, to exercise the byte path; a third of the pairs with anything in them.
            let asciiOnly = generator.chance(66)
            var text = Self.generatedString(&generator, maximumUnits: 7)
            var constant = Self.generatedString(&generator, maximumUnits: 3)
            if asciiOnly {
                text = String(text.unicodeScalars.filter(\.isASCII).map(Character.init))
                constant = String(constant.unicodeScalars.filter(\.isASCII).map(Character.init))
            }
            if operatorType == .matches {
                // A valid expression: the constant's letters, each optionally followed by `.*`.
                constant = constant.filter { $0.isLetter && $0.isASCII }.map { generator.chance(50) ? "\($0).*" : "\($0)" }.joined()
            }
            try Self.check(text, operatorType, constant, options)
        }
    }

    /// A text, an operator, a constant and options.
    struct NamedCase: Sendable, CustomTestStringConvertible {
        var text: String, operatorType: ComparisonOperator, constant: String, options: ComparisonOptions
        init(_ text: String, _ operatorType: ComparisonOperator, _ constant: String, _ options: ComparisonOptions = []) {
            (self.text, self.operatorType, self.constant, self.options) = (text, operatorType, constant, options)
        }
        var testDescription: String {
            "\(text.debugDescription) \(operatorType.formatSymbol)\(options.formatSuffix) \(constant.debugDescription)"
        }
    }

    static let namedCases: [NamedCase] = [
        NamedCase("straße", .contains, "SS", .caseInsensitive), NamedCase("STRASSE", .equalTo, "straße", .caseInsensitive),
        NamedCase("İstanbul", .beginsWith, "i", [.caseInsensitive, .diacriticInsensitive]),
        NamedCase("istanbul", .equalTo, "İSTANBUL", .caseInsensitive), NamedCase("ıi", .contains, "I", .caseInsensitive),
        NamedCase("cafe\u{301}", .endsWith, "é"), NamedCase("cafe\u{301}", .endsWith, "E", [.caseInsensitive, .diacriticInsensitive]),
        NamedCase("e\u{301}", .contains, "e"), NamedCase("ﬁle", .beginsWith, "fi", .caseInsensitive),
        NamedCase("Kelvin", .beginsWith, "\u{212A}", .caseInsensitive),
        NamedCase("", .equalTo, ""), NamedCase("", .contains, "", .caseInsensitive), NamedCase("abc", .contains, ""),
        NamedCase("", .like, ""), NamedCase("", .like, "*", .caseInsensitive), NamedCase("", .matches, ""),
        NamedCase("", .lessThan, "a", .caseInsensitive), NamedCase("a\0", .contains, "\0"),
        NamedCase("[", .contains, "[\0", .caseInsensitive), NamedCase("a\r\nb", .like, "a?b"), NamedCase("a\r\nb", .like, "a??b"),
        NamedCase("a\r\nb", .contains, "\n", .caseInsensitive),
        NamedCase("RESUME", .matches, "r.sum.", [.caseInsensitive, .diacriticInsensitive]),
        NamedCase("résumé", .matches, "resume", .diacriticInsensitive),
        NamedCase("Résumé", .matches, "résumé", [.caseInsensitive, .normalized]),
        NamedCase("Zoë", .like, "zo?", [.caseInsensitive, .diacriticInsensitive]), NamedCase("ABC", .in, "xabcx", .caseInsensitive),
        NamedCase("_", .lessThan, "a", .caseInsensitive), NamedCase("Z", .greaterThan, "_", .caseInsensitive),
        NamedCase("Z", .lessThan, "_"),
    ]

    @Test(arguments: namedCases)
    func namedCasesAgree(_ testCase: NamedCase) throws {
        try Self.check(testCase.text, testCase.operatorType, testCase.constant, testCase.options)
    }

    @Test func matchesOnASCIIIgnoresDiacriticFoldingOnlyBecauseItChangesNothing() {
        let ascii = String((1..<128).map { Character(UnicodeScalar(UInt8($0))) })
        #expect(ascii.folding(options: .diacriticInsensitive, locale: nil) == ascii)
    }

    @Test func anInvalidExpressionOrANonStringOperatorIsRefused() {
        #expect(throws: PredicateEvaluationError.self) { try PreparedStringComparison(.matches, "(unclosed") }
        #expect(throws: PredicateEvaluationError.self) { try PreparedStringComparison(.between, "a") }
        #expect(throws: PredicateEvaluationError.self) { try PreparedStringComparison(.customSelector, "a") }
    }
}
