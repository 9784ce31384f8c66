import Foundation
import Predicates
import Testing

@Suite("Format arguments")
struct FormatArgumentTests {
    @Test("Arguments are substituted in order", arguments: ([
        ("name == %@", ["Ann"], #"name == "Ann""#),
        ("%K == %@", ["name", "Ann"], #"name == "Ann""#),
        ("%K.%K == 1", ["a", "b"], "a.b == 1"),
        ("%K == 1", ["a.b.@count"], "count:(a.b) == 1"),
        ("%K == 1", ["in"], "#in == 1"),
        ("age > %d", [Int32(3)], "age > 3"),
        ("age > %i", [3], "age > 3"),
        ("age > %ld", [Int64(3)], "age > 3"),
        ("age > %lld", [UInt8(3)], "age > 3"),
        ("age > %u", [UInt(3)], "age > 3"),
        ("age > %f", [2.5], "age > 2.5"),
        ("age > %lf", [Float(2.5)], "age > 2.5"),
        ("age > %.2f", [2], "age > 2"),
        ("name == %s", ["Ann"], #"name == "Ann""#),
        ("name == %@", [#"say "hi""#], #"name == "say \"hi\"""#),
        ("a IN %@", [[1, 2, 3]], "a IN {1, 2, 3}"),
        ("a IN %@", [Set([7])], "a IN {7}"),
        ("a IN %@", [NSArray(array: [1, "x"])], #"a IN {1, "x"}"#),
        ("a == %@", [true], "a == 1"),
        ("a == %@", [NSNumber(value: false)], "a == 0"),
        ("a == %@", [NSNumber(value: 1)], "a == 1"),
        ("a == %@", [Date(timeIntervalSinceReferenceDate: 742000000.5)], #"a == CAST(742000000.5, "NSDate")"#),
        ("a == %@", [Decimal(string: "3.14")!], "a == 3.14"),
        ("a BETWEEN %@", [[1, 5]], "a BETWEEN {1, 5}"),
        ("name == '%@'", [], #"name == "%@""#),
        ("name == \"%K\"", [], #"name == "%K""#),
        ("a == %@ AND b == %@", [1, "x"], #"a == 1 AND b == "x""#),
        ("a == %@", [1, 2], "a == 1"),
    ] as [(String, [Any?], String)]).map(ArgumentCase.init))
    func substitution(_ testCase: ArgumentCase) throws {
        let (format, arguments, canonical) = (testCase.format, testCase.arguments, testCase.expected)
        let predicate = try PredicateParser.parsePredicate(format, arguments: arguments)
        #expect(predicate.predicateFormat == canonical)
        #expect(try PredicateParser.parsePredicate(predicate.predicateFormat) == predicate)
    }

    @Test("A nil argument is NULL")
    func nilArgument() throws {
        let predicate = NSPredicate(format: "a == %@", nil)
        #expect(predicate.predicateFormat == "a == nil")
        #expect(predicate.evaluate(with: ["b": 1]))
    }

    @Test("An NSNull argument prints <null>, as Apple's description does, and compares as nil")
    func nsNullArgument() throws {
        let predicate = NSPredicate(format: "name == %@", NSNull())
        #expect(predicate.predicateFormat == "name == <null>")
        #expect(NSPredicate(format: "name == nil").predicateFormat == "name == nil")
        #expect(NSExpression(forConstantValue: NSNull()).description == "<null>")
        #expect(NSExpression(forConstantValue: nil).description == "nil")
        #expect(NSExpression(forConstantValue: NSNull()).constantValue is NSNull)
        // Only the printing differs: it matches what `name == nil` matches.
        #expect(predicate.evaluate(with: ["age": 1]))
        #expect(predicate.evaluate(with: ["name": NSNull()]))
        #expect(!predicate.evaluate(with: ["name": "Ann"]))
        #expect(NSPredicate(format: "name IN %@", [NSNull(), "Ann"]).evaluate(with: ["age": 1]))
    }

    @Test("A %@ string is a value, never parsed as syntax")
    func injectionIsImpossible() throws {
        let predicate = try PredicateParser.parsePredicate("name == %@", arguments: [#"x" OR TRUEPREDICATE OR "#])
        guard case .comparison(let comparison) = predicate else { Issue.record("not a comparison"); return }
        #expect(comparison.right == .constant(.string(#"x" OR TRUEPREDICATE OR "#)))
    }

    @Test("Variables are substituted by value")
    func variableSubstitution() throws {
        let predicate = try PredicateParser.parsePredicate("a > $low AND a IN $set AND SUBQUERY(c, $low, $low > 1).@count > 0")
        let substituted = predicate.substitutingVariables(["low": .integer(3), "set": .array([.integer(1), .integer(2)])])
        #expect(substituted.predicateFormat == "a > 3 AND a IN {1, 2} AND SUBQUERY(c, $low, $low > 1).@count > 0")
        #expect(predicate.variableNames == ["low", "set"])
        let partial = NSPredicate(format: "a == $x AND b == $y").withSubstitutionVariables(["x": "v"])
        #expect(partial.predicateFormat == #"a == "v" AND b == $y"#)
    }
}

/// A format with its arguments; unchecked because the arguments are immutable test constants.
struct ArgumentCase: @unchecked Sendable, CustomStringConvertible {
    let format: String
    let arguments: [Any?]
    let expected: String

    init(_ values: (String, [Any?], String)) {
        (format, arguments, expected) = values
    }

    var description: String { format }
}
