import Foundation
import Predicates
import Testing

@Suite("Syntax errors")
struct SyntaxErrorTests {
    private func syntaxError(_ format: String, _ arguments: [Any?] = []) -> PredicateSyntaxError? {
        do {
            let predicate = try PredicateParser.parsePredicate(format, arguments: arguments)
            Issue.record("\(format) parsed as \(predicate.predicateFormat)")
            return nil
        } catch {
            return error
        }
    }

    @Test("Malformed input is an error at the offending UTF-8 offset, saying what was expected", arguments: [
        ("", 0, "an expression"),
        ("(a == 1", 7, "')'"),
        ("a == 1)", 6, "AND, OR"),
        ("((a == 1)", 9, "')'"),
        ("a == \"abc", 9, "close the string"),
        ("a == 'abc", 9, "close the string"),
        ("a == 'it\"s", 10, "close the string"),
        ("a === 1", 4, "an expression"),
        ("a ? 1", 2, "an operator"),
        ("a == ", 5, "an expression"),
        ("== 1", 0, "an expression"),
        ("a == 1 AND", 10, "an expression"),
        ("a LIKES 'x'", 2, "a comparison operator"),
        ("a", 1, "a comparison operator"),
        ("a BETWEEN {1}", 2, "two bounds"),
        ("a BETWEEN[c] {1, 2}", 9, "takes no options"),
        ("a IN[x] {1}", 5, "c, d or n"),
        ("a ==[c 'x'", 7, "']'"),
        ("a == $", 6, "variable name"),
        ("a == @", 6, "collection operator"),
        ("a.@foo == 1", 2, "a collection operator"),
        ("a == #", 6, "a name"),
        ("foo(1) == 2", 0, "a known function"),
        ("sum:() == 1", 0, "at least 1 argument"),
        ("multiply:by:(1) == 1", 0, "2 arguments"),
        ("frobnicate:(1) == 1", 0, "a known function"),
        ("sum: == 1", 5, "'('"),
        ("a == 0x", 7, "digits after"),
        ("a == 0b102", 9, "end of the number"),
        ("a == 12abc", 7, "end of the number"),
        ("a == 1e999", 5, "range of a double"),
        ("a == 0x1FFFFFFFFFFFFFFFF", 5, "64 bits"),
        (#"a == "\x4""#, 9, "hexadecimal digits"),
        (#"a == "\u12""#, 10, "hexadecimal digits"),
        (#"a == "\18""#, 8, "octal digits"),
        ("SUBQUERY(a, b, b == 1).@count > 0", 12, "$variable"),
        ("SUBQUERY(a, $b) > 0", 14, "','"),
        ("CAST(a, 1) == 1", 8, "type name"),
        ("FUNCTION(a, 1) == 1", 12, "selector name"),
        ("NOT", 3, "an expression"),
        ("ANY", 3, "an expression"),
        ("a[FIRST == 1", 8, "']'"),
        ("a == {1, 2", 10, "'}'"),
        ("first == 1", 0, "#first"),
        ("a.size == 1", 2, "#size"),
        ("TERNARY(a, 1, 2) == 1", 9, "a comparison operator"),
        ("a == 1 b == 2", 7, "AND, OR"),
        ("a :: b", 2, "an operator"),
        ("a == 'x' +", 10, "an expression"),
        ("a := 1", 2, "a comparison operator"),
        ("a == %@", 5, "an argument for %@"),
        ("a == %q", 7, "a conversion character"),
        ("a == %y", 6, "a format conversion"),
        ("a == 1 %% 2", 7, "AND, OR"),
        ("a == €", 5, "an operator, a name"),
        ("a == \u{0}", 5, "an operator, a name"),
        ("é == \u{1F600}", 6, "an operator, a name"),
        ("a UTI-CONFORMS-TO 'x'", 2, "a comparison operator"),
        ("FETCH(a, b, MAYBE) == 1", 12, "YES or NO"),
    ] as [(String, Int, String)])
    func malformed(format: String, offset: Int, expected: String) throws {
        let error = try #require(syntaxError(format))
        #expect(error.offset == offset, "\(error)")
        #expect(error.expected.contains(expected), "\(error)")
        #expect(!error.found.isEmpty)
        #expect(error.format == format)
        #expect(error.caretDiagnostic.contains("^ expected \(error.expected)"))
    }

    @Test("Arguments of the wrong type are errors at their conversion", arguments: ([
        ("%K == 1", [5], 0, "key path"),
        ("%K == 1", [""], 0, "key path"),
        ("a == %d", ["x"], 5, "an integer"),
        ("a == %d", [2.5], 5, "an integer"),
        ("a == %f", ["x"], 5, "a number"),
        ("a == %s", [5], 5, "a string"),
        ("a == %d", [nil], 5, "an integer"),
        ("a == %@ AND b == %K", ["x"], 17, "an argument for %K"),
    ] as [(String, [Any?], Int, String)]).map { ArgumentErrorCase(format: $0.0, arguments: $0.1, offset: $0.2, expected: $0.3) })
    func wrongArgumentTypes(_ testCase: ArgumentErrorCase) throws {
        let (format, arguments, offset, expected) = (testCase.format, testCase.arguments, testCase.offset, testCase.expected)
        let error = try #require(syntaxError(format, arguments))
        #expect(error.offset == offset, "\(error)")
        #expect(error.expected.contains(expected), "\(error)")
    }

    @Test("Nesting 10,000 deep is an error, not a stack overflow", arguments: [
        String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000),
        String(repeating: "NOT ", count: 10_000) + "a == 1",
        String(repeating: "! ", count: 10_000) + "a == 1",
        "a == " + String(repeating: "-", count: 10_000) + "1",
        "a == " + String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000),
        "a == " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
        "a == " + String(repeating: "sum:(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
        "a == " + Array(repeating: "1", count: 10_000).joined(separator: " + "),
        "a == " + Array(repeating: "2", count: 10_000).joined(separator: " ** "),
        "a == b" + String(repeating: "[0]", count: 10_000),
        "a == " + String(repeating: "SUBQUERY(x, $y, ", count: 10_000),
        "a == " + Array(repeating: "b", count: 10_000).joined(separator: " UNION "),
    ])
    func deepNesting(format: String) throws {
        let error = try #require(syntaxError(format))
        #expect(error.expected.contains("levels of nesting"), "\(error.reason)")
        #expect(error.offset > 0 && error.offset < format.utf8.count)
    }

    @Test("Backtracking over parentheses stays polynomial", .timeLimit(.minutes(1)), arguments: [
        String(repeating: "(TERNARY(", count: 45) + "a",
        String(repeating: "(TERNARY((", count: 30) + "a == 1",
        String(repeating: "(SUBQUERY(a, $x, ", count: 45) + "a",
        String(repeating: "((", count: 49) + "a",
        String(repeating: "(TERNARY(", count: 20) + "a == 1, 1, 2)) == 1" + String(repeating: ", 1, 2)) == 1", count: 19),
    ])
    func pathologicalBacktracking(format: String) {
        // Each prefix is tried as a parenthesised predicate and as an expression; remembering the outcome per
        // parenthesis keeps the work polynomial instead of doubling with each level.
        do {
            let predicate = try PredicateParser.parsePredicate(format)
            #expect(try PredicateParser.parsePredicate(predicate.predicateFormat) == predicate)
        } catch {
            #expect(error.offset <= format.utf8.count)
        }
    }

    @Test("The deepest accepted inputs fit the documented stack budget", arguments: [
        String(repeating: "(", count: 99) + "a == 1" + String(repeating: ")", count: 99),
        "a == " + String(repeating: "(", count: 99) + "1" + String(repeating: ")", count: 99),
        String(repeating: "(TERNARY(", count: 49) + "a == 1, 1, 2)) == 1" + String(repeating: ", 1, 2)) == 1", count: 48),
        "a == " + String(repeating: "-", count: 99) + "1",
        String(repeating: "NOT ", count: 99) + "a == 1",
    ])
    func stackBudget(format: String) async throws {
        // PredicateParser documents 4 MB as enough for debug builds (measured: about 2 MB; under 256 KB in release).
        let parsed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let thread = Thread {
                continuation.resume(returning: (try? PredicateParser.parsePredicate(format)) != nil)
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        #expect(parsed)
    }

    @Test("Long flat chains are not nesting")
    func longFlatChains() throws {
        let format = Array(repeating: "a == 1", count: 10_000).joined(separator: " OR ")
        let predicate = try PredicateParser.parsePredicate(format)
        guard case .or(let subpredicates) = predicate else { Issue.record("not an OR"); return }
        #expect(subpredicates.count == 10_000)
        let list = "a IN {" + (0..<10_000).map(String.init).joined(separator: ", ") + "}"
        #expect(try PredicateParser.parsePredicate(list).predicateFormat == list)
    }

    @Test("The caret diagnostic points at the offending character")
    func caretDiagnostic() throws {
        let error = try #require(syntaxError("name == \"Ann\" AND"))
        #expect(error.caretDiagnostic == """
            name == "Ann" AND
                             ^ expected an expression, found end of input
            """)
        let accented = try #require(syntaxError("prénom == ? "))
        #expect(accented.offset == 11)
        #expect(accented.caretDiagnostic.split(separator: "\n")[1].hasPrefix(String(repeating: " ", count: 10) + "^"))
        let wide = try #require(syntaxError("名前 == 'x' +"))
        #expect(wide.caretDiagnostic.split(separator: "\n")[1].hasPrefix(String(repeating: " ", count: 13) + "^"))
        let multiline = try #require(syntaxError("a == 1 AND\nb == ) "))
        #expect(multiline.caretDiagnostic == "b == ) \n     ^ expected an expression, found ')'")
        let control = try #require(syntaxError("a\u{1B}[31m == 1"))
        #expect(!control.caretDiagnostic.contains("\u{1B}"))
    }
}

/// A format whose arguments do not fit; unchecked because the arguments are immutable test constants.
struct ArgumentErrorCase: @unchecked Sendable, CustomStringConvertible {
    let format: String
    let arguments: [Any?]
    let offset: Int
    let expected: String

    var description: String { format }
}
