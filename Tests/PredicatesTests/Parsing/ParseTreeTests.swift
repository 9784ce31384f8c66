import Foundation
import Predicates
import Testing

@Suite("Parse trees")
struct ParseTreeTests {
    private func comparison(_ format: String) throws -> ComparisonNode {
        guard case .comparison(let node) = try PredicateParser.parsePredicate(format) else {
            Issue.record("\(format) is not a comparison")
            throw PredicateEvaluationError("not a comparison")
        }
        return node
    }

    @Test("Comparison parts")
    func comparisonParts() throws {
        let node = try comparison("ANY children.name BEGINSWITH[cd] 'a'")
        #expect(node.left == .keyPath("children.name"))
        #expect(node.operatorType == .beginsWith)
        #expect(node.right == .constant(.string("a")))
        #expect(node.modifier == .any)
        #expect(node.options == [.caseInsensitive, .diacriticInsensitive])
    }

    @Test("Operators carry Apple's raw values", arguments: [
        ("<", 0), ("<=", 1), (">", 2), (">=", 3), ("==", 4), ("!=", 5), ("MATCHES", 6), ("LIKE", 7), ("BEGINSWITH", 8),
        ("ENDSWITH", 9), ("IN", 10), ("CONTAINS", 99), ("BETWEEN", 100),
    ] as [(String, UInt)])
    func operatorRawValues(symbol: String, rawValue: UInt) throws {
        let right = symbol == "BETWEEN" ? "{1, 2}" : "'x'"
        #expect(try comparison("a \(symbol) \(right)").operatorType.rawValue == rawValue)
    }

    @Test("Chains are flat; explicit parentheses nest")
    func compoundShapes() throws {
        let a = PredicateNode.comparison(ComparisonNode(.keyPath("a"), .equalTo, .constant(.integer(1))))
        let b = PredicateNode.comparison(ComparisonNode(.keyPath("b"), .equalTo, .constant(.integer(2))))
        let c = PredicateNode.comparison(ComparisonNode(.keyPath("c"), .equalTo, .constant(.integer(3))))
        #expect(try PredicateParser.parsePredicate("a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
        #expect(try PredicateParser.parsePredicate("(a == 1 AND b == 2) AND c == 3") == .and([.and([a, b]), c]))
        #expect(try PredicateParser.parsePredicate("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try PredicateParser.parsePredicate("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try PredicateParser.parsePredicate("NONE a == 1") == .not(.comparison(ComparisonNode(
            .keyPath("a"), .equalTo, .constant(.integer(1)), modifier: .any))))
    }

    @Test("Expression shapes", arguments: [
        ("a.b.@count", ExpressionNode.function("count:", [.keyPath("a.b")])),
        ("SELF", .evaluatedObject),
        ("SELF.a", .keyPath("a")),
        ("$x.name", .keyPathOnExpression(.variable("x"), "name")),
        ("1 + 2 * 3", .function("add:to:", [.constant(.integer(1)), .function("multiply:by:", [.constant(.integer(2)), .constant(.integer(3))])])),
        ("-a", .function("from:subtract:", [.constant(.integer(0)), .keyPath("a")])),
        ("-5", .constant(.integer(-5))),
        ("2 ** 3 ** 2", .function("raise:toPower:", [.constant(.integer(2)), .function("raise:toPower:", [.constant(.integer(3)), .constant(.integer(2))])])),
        ("a[FIRST]", .index(.keyPath("a"), .first)),
        ("a[2]", .index(.keyPath("a"), .at(.constant(.integer(2))))),
        ("{1, 'x'}", .aggregate([.constant(.integer(1)), .constant(.string("x"))])),
        ("CAST(0, 'NSDate')", .constant(.date(Date(timeIntervalSinceReferenceDate: 0)))),
        ("CAST(a, 'NSDate')", .function("castObject:toType:", [.keyPath("a"), .constant(.string("NSDate"))])),
        ("FUNCTION(a, 'b:', 1)", .customFunction(receiver: .keyPath("a"), selector: "b:", arguments: [.constant(.integer(1))])),
        ("a UNION b", .setOperation(.keyPath("a"), .union, .keyPath("b"))),
        ("ANYKEY", .anyKey),
        ("sum(1, 2)", .function("sum:", [.constant(.integer(1)), .constant(.integer(2))])),
        ("now()", .function("now", [])),
        ("#size", .keyPath("size")),
        ("@count", .keyPath("@count")),
        ("items.@avg.price", .keyPath("items.@avg.price")),
        ("0x10", .constant(.integer(16))),
        ("1.5", .constant(.double(1.5))),
        ("TRUE", .constant(.bool(true))),
        ("nil", .constant(.null)),
    ] as [(String, ExpressionNode)])
    func expressionShape(format: String, expected: ExpressionNode) throws {
        #expect(try PredicateParser.parseExpression(format) == expected)
    }

    @Test("Subquery and ternary parts")
    func subqueryAndTernary() throws {
        let subquery = try PredicateParser.parseExpression("SUBQUERY(children, $c, $c.age > 5)")
        guard case .subquery(let collection, let variable, let predicate) = subquery else {
            Issue.record("not a subquery: \(subquery)")
            return
        }
        #expect(collection == .keyPath("children"))
        #expect(variable == "c")
        #expect(predicate == .comparison(ComparisonNode(.keyPathOnExpression(.variable("c"), "age"), .greaterThan, .constant(.integer(5)))))
        let ternary = try PredicateParser.parseExpression("TERNARY(a == 1, 'x', 'y')")
        #expect(ternary.expressionType == .conditional)
    }

    @Test("Expression types carry Apple's raw values", arguments: [
        ("1", 0), ("SELF", 1), ("$x", 2), ("a.b", 3), ("sum:(a)", 4), ("a UNION b", 5), ("a INTERSECT b", 6),
        ("a MINUS b", 7), ("SUBQUERY(a, $x, $x == 1)", 13), ("{1}", 14), ("ANYKEY", 15), ("TERNARY(a == 1, 1, 2)", 20),
        ("a[FIRST]", 4), ("CAST(a, 'NSNumber')", 4),
    ] as [(String, UInt)])
    func expressionTypes(format: String, rawValue: UInt) throws {
        #expect(try PredicateParser.parseExpression(format).expressionType.rawValue == rawValue)
    }

    @Test("TRUE and 1 are equal constants, as NSNumber makes them; strings compare code point by code point")
    func constantEquality() {
        #expect(ConstantValue.bool(true) == .integer(1))
        #expect(ConstantValue.double(10) == .integer(10))
        #expect(ConstantValue.decimal(Decimal(string: "2.5")!) == .double(2.5))
        #expect(ConstantValue.integer(1).hashValue == ConstantValue.double(1).hashValue)
        #expect(ConstantValue.string("é") != .string("e\u{301}"))
        #expect(ConstantValue.string("1") != .integer(1))
        #expect(ConstantValue.null != .integer(0))
    }
}
