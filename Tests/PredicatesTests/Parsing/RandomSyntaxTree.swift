import Foundation
import Predicates

/// Random predicates in the shape the parser produces, for the printing round-trip property.
struct RandomSyntaxTree {
    var generator: SeededGenerator

    private static let keys = ["a", "name", "x_1", "prénom", "size", "in", "first", "select", "Ω", "_k"]
    private static let texts = ["", "Ann", "it's", "say \"hi\"", "back\\slash", "tab\there", "new\nline", "é", "e\u{301}",
                                "ß", "İı", "😀👍🏽", "\u{0}\u{1B}", "%@", "*?", "日本"]
    private static let functions: [(String, Int)] = [
        ("sum:", 1), ("count:", 1), ("min:", 2), ("average:", 3), ("sqrt:", 1), ("lowercase:", 1), ("now", 0),
        ("add:to:", 2), ("from:subtract:", 2), ("multiply:by:", 2), ("divide:by:", 2), ("raise:toPower:", 2),
        ("modulus:by:", 2), ("bitwiseAnd:with:", 2), ("bitwiseXor:with:", 2), ("length:", 1), ("random", 0),
    ]

    mutating func predicate(depth: Int) -> PredicateNode {
        let choice = depth <= 0 ? 0 : Int.random(in: 0..<10, using: &generator)
        switch choice {
        case 6: return .and((0..<Int.random(in: 2...3, using: &generator)).map { _ in predicate(depth: depth - 1) })
        case 7: return .or((0..<Int.random(in: 2...3, using: &generator)).map { _ in predicate(depth: depth - 1) })
        case 8: return .not(predicate(depth: depth - 1))
        case 9: return .constant(generator.chance(50))
        default: return .comparison(comparison(depth: depth))
        }
    }

    private mutating func comparison(depth: Int) -> ComparisonNode {
        let operatorType = generator.pick(ComparisonOperator.allCases.filter { $0 != .customSelector })
        let modifier = generator.pick(ComparisonModifier.allCases)
        let right: ExpressionNode = operatorType == .between
            ? .aggregate([expression(depth: depth - 1), expression(depth: depth - 1)])
            : expression(depth: depth - 1)
        let options = operatorType == .between ? [] : ComparisonOptions(rawValue: UInt.random(in: 0...7, using: &generator))
        return ComparisonNode(expression(depth: depth - 1), operatorType, right, modifier: modifier, options: options)
    }

    mutating func expression(depth: Int) -> ExpressionNode {
        let choice = depth <= 0 ? Int.random(in: 0..<4, using: &generator) : Int.random(in: 0..<14, using: &generator)
        switch choice {
        case 0: return .constant(constant())
        case 1: return .keyPath((0..<Int.random(in: 1...3, using: &generator)).map { _ in generator.pick(Self.keys) }.joined(separator: "."))
        case 2: return .variable(generator.pick(["v", "x1", "first"]))
        case 3: return generator.pick([.evaluatedObject, .keyPath("@count"), .keyPath("items.@avg.price")])
        case 4:
            let (name, arity) = generator.pick(Self.functions)
            return .function(name, (0..<arity).map { _ in expression(depth: depth - 1) })
        case 5: return .function("count:", [.keyPath(generator.pick(Self.keys))])
        case 6: return .aggregate((0..<Int.random(in: 0...3, using: &generator)).map { _ in expression(depth: depth - 1) })
        case 7:
            let selector: IndexSelector = generator.pick([.first, .last, .size, .at(expression(depth: depth - 1))])
            return .index(.keyPath(generator.pick(Self.keys)), selector)
        case 8: return .setOperation(expression(depth: depth - 1), generator.pick(SetOperation.allCases), expression(depth: depth - 1))
        case 9: return .subquery(collection: expression(depth: depth - 1), variable: "s", predicate: predicate(depth: depth - 1))
        case 10: return .conditional(predicate(depth: depth - 1), expression(depth: depth - 1), expression(depth: depth - 1))
        case 11: return .keyPathOnExpression(generator.pick([.variable("v"), .index(.keyPath("a"), .last)]), generator.pick(Self.keys))
        case 12: return .customFunction(receiver: expression(depth: depth - 1), selector: generator.pick(["f", "g:h:"]),
                                        arguments: (0..<Int.random(in: 0...2, using: &generator)).map { _ in expression(depth: depth - 1) })
        default: return .function("castObject:toType:", [expression(depth: depth - 1), .constant(.string(generator.pick(["NSNumber", "NSString"])))])
        }
    }

    private mutating func constant() -> ConstantValue {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator))
        case 1: return .double(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 997)
        case 2: return .double(generator.pick([1e-7, 1e20, 2.5e300, 0.1, -0.0, 123456.789]))
        case 3: return .bool(generator.chance(50))
        case 4: return .null
        case 5: return .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator)) / 8))
        case 6: return .integer(generator.pick([Int64.max, Int64.min + 1, 0]))
        default: return .string(generator.pick(Self.texts))
        }
    }
}
