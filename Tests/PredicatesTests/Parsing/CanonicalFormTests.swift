import Foundation
import Predicates
import Testing

@Suite("Canonical predicateFormat")
struct CanonicalFormTests {
    @Test("Enough format strings are covered")
    func tableSize() {
        #expect(allCanonicalCases.count >= 300)
    }

    @Test("Each format prints in Apple's canonical form", arguments: allCanonicalCases)
    func canonicalForm(format: String, canonical: String) throws {
        let predicate = try PredicateParser.parsePredicate(format)
        #expect(predicate.predicateFormat == canonical)
    }

    @Test("Printing and parsing again gives an equal AST", arguments: allCanonicalCases)
    func roundTrip(format: String, canonical: String) throws {
        let predicate = try PredicateParser.parsePredicate(format)
        let reparsed = try PredicateParser.parsePredicate(predicate.predicateFormat)
        #expect(reparsed == predicate)
        #expect(reparsed.predicateFormat == predicate.predicateFormat)
    }

    @Test("The canonical form is a fixed point", arguments: allCanonicalCases.map(\.1))
    func canonicalIsStable(canonical: String) throws {
        #expect(try PredicateParser.parsePredicate(canonical).predicateFormat == canonical)
    }

    @Test("A derived attribute's expression canonicalises @count into count:()")
    func derivedAttributeExpression() throws {
        #expect(NSExpression(format: "pages.@count").predicateFormat == "count:(pages)")
        #expect(try PredicateParser.parseExpression("book.pages.@count").predicateFormat == "count:(book.pages)")
        #expect(try PredicateParser.parseExpression("pages.@sum.words").predicateFormat == "pages.@sum.words")
        #expect(try PredicateParser.parseExpression("count:(pages)") == PredicateParser.parseExpression("pages.@count"))
    }

    @Test("Expressions print canonically", arguments: [
        ("pages.@count", "count:(pages)"), ("1 + 2", "1 + 2"), ("now()", "now()"), ("$x", "$x"), ("SELF", "SELF"),
        ("'a'", #""a""#), ("{1, 2}", "{1, 2}"), ("CAST(0, 'NSDate')", #"CAST(0, "NSDate")"#), ("-x", "-x"),
        ("lowercase:(name)", "lowercase:(name)"), ("a[LAST]", "a[LAST]"), ("SUBQUERY(a, $x, $x == 1)", "SUBQUERY(a, $x, $x == 1)"),
    ])
    func expressionFormat(format: String, canonical: String) throws {
        #expect(try PredicateParser.parseExpression(format).predicateFormat == canonical)
    }
}
