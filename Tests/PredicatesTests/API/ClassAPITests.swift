import Foundation
import Predicates
import Testing

// Scoped imports make these names win over Foundation's in type positions too (see the module documentation).
import class Predicates.NSComparisonPredicate
import class Predicates.NSCompoundPredicate
import class Predicates.NSExpression
import class Predicates.NSPredicate
import class Predicates.NSSortDescriptor

@Suite("Apple's class API")
struct ClassAPITests {
    @Test("NSPredicate shadows Foundation's and parses formats")
    func predicateBasics() throws {
        let predicate = NSPredicate(format: "name BEGINSWITH[cd] %@ AND age > %d", "a", 30)
        #expect(predicate.predicateFormat == #"name BEGINSWITH[cd] "a" AND age > 30"#)
        #expect(predicate.description == predicate.predicateFormat)
        #expect(predicate.evaluate(with: ["name": "Ánne", "age": 31]))
        #expect(!predicate.evaluate(with: ["name": "Ánne", "age": 29]))
        #expect(NSPredicate(format: "a == %@", argumentArray: [1]).predicateFormat == "a == 1")
        #expect(NSPredicate(value: true).predicateFormat == "TRUEPREDICATE")
        #expect(!NSPredicate(value: false).evaluate(with: nil))
        #expect(NSPredicate(format: "a == 1") == NSPredicate(format: "a = 1"))
        #expect(NSPredicate(format: "a == 1").hash == NSPredicate(format: "a = 1").hash)
        #expect(NSPredicate(format: "a == 1") != NSPredicate(format: "a == 2"))
        #expect(throws: PredicateSyntaxError.self) { try NSPredicate(parsing: "a ==") }
    }

    @Test("Block predicates evaluate in memory, alone and inside compounds")
    func blockPredicate() {
        let adult = NSPredicate { object, variables in
            ((object as? [String: Any])?["age"] as? Int ?? 0) >= (variables?["minimum"] as? Int ?? 18)
        }
        #expect(adult.evaluate(with: ["age": 20]))
        #expect(!adult.evaluate(with: ["age": 20], substitutionVariables: ["minimum": 21]))
        #expect(adult.predicateFormat.hasPrefix("BLOCKPREDICATE(0x"))
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "name == 'Ann'"), adult])
        #expect(both.evaluate(with: ["name": "Ann", "age": 30]))
        #expect(!both.evaluate(with: ["name": "Ann", "age": 3]))
        #expect(adult == adult)
        #expect(adult != NSPredicate { _, _ in true })
        #expect(throws: PredicateSyntaxError.self) { try NSPredicate(parsing: adult.predicateFormat) }
    }

    @Test("NSComparisonPredicate presents the comparison with Apple's names")
    func comparisonPredicate() throws {
        let parsed = NSPredicate(format: "ANY tags CONTAINS[cd] 'x'")
        let comparison = try #require(NSPredicate.predicate(for: parsed.predicateNode) as? NSComparisonPredicate)
        #expect(comparison.predicateOperatorType == .contains)
        #expect(comparison.predicateOperatorType.rawValue == 99)
        #expect(comparison.comparisonPredicateModifier == .any)
        #expect(comparison.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(comparison.options.rawValue == 3)
        #expect(comparison.leftExpression.keyPath == "tags")
        #expect(comparison.rightExpression.constantValue as? String == "x")
        let built = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "age"), rightExpression: NSExpression(forConstantValue: 3),
            modifier: .direct, type: .greaterThanOrEqualTo, options: [])
        #expect(built.predicateFormat == "age >= 3")
        #expect(built.evaluate(with: ["age": 3]))
        #expect(NSComparisonPredicate.Operator.between.rawValue == 100)
        #expect(NSComparisonPredicate.Options.normalized.rawValue == 4)
        #expect(NSComparisonPredicate.Modifier.all.rawValue == 1)
    }

    @Test("NSCompoundPredicate builds and presents AND, OR, NOT")
    func compoundPredicate() throws {
        let a = NSPredicate(format: "a == 1"), b = NSPredicate(format: "b == 2"), c = NSPredicate(format: "c == 3")
        let and = NSCompoundPredicate(andPredicateWithSubpredicates: [a, b])
        #expect(and.predicateFormat == "a == 1 AND b == 2")
        #expect(and.compoundPredicateType == .and)
        #expect(and.subpredicates.count == 2)
        #expect(and.subpredicates.first is NSComparisonPredicate)
        let nested = NSCompoundPredicate(orPredicateWithSubpredicates: [and, c])
        #expect(nested.predicateFormat == "(a == 1 AND b == 2) OR c == 3")
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: [nested, a]).predicateFormat == "((a == 1 AND b == 2) OR c == 3) AND a == 1")
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: and)
        #expect(not.predicateFormat == "NOT (a == 1 AND b == 2)")
        #expect(not.compoundPredicateType == .not)
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: a).predicateFormat == "NOT a == 1")
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).evaluate(with: nil))
        #expect(!NSCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: nil))
        #expect(NSCompoundPredicate.LogicalType.or.rawValue == 2)
        let parsed = NSPredicate.predicate(for: NSPredicate(format: "x == 1 OR y == 2").predicateNode)
        #expect((parsed as? NSCompoundPredicate)?.compoundPredicateType == .or)
    }

    @Test("NSExpression accessors follow the expression type")
    func expressionAccessors() throws {
        #expect(NSExpression(format: "pages.@count").predicateFormat == "count:(pages)")
        #expect(NSExpression(format: "pages.@count").function == "count:")
        #expect(NSExpression(format: "pages.@count").arguments?.first?.keyPath == "pages")
        #expect(NSExpression(forKeyPath: "pages.@count").predicateFormat == "count:(pages)")
        #expect(NSExpression(format: "a.b").expressionType == .keyPath)
        #expect(NSExpression(format: "a.b").operand.expressionType == .evaluatedObject)
        #expect(NSExpression(format: "$v").variable == "v")
        #expect(NSExpression(format: "$v.name").operand.variable == "v")
        #expect(NSExpression(format: "%@", 5).constantValue as? Int == 5)
        #expect(NSExpression(format: "{1, 2}").constantValue as? [Int] == [1, 2])
        #expect(NSExpression(format: "{1, 2}").expressionType == .aggregate)
        #expect(NSExpression(format: "{1, a}").collection is [NSExpression])
        #expect(NSExpression(format: "a + b").function == "add:to:")
        #expect(NSExpression(format: "a[LAST]").function == "objectFrom:withIndex:")
        #expect(NSExpression(format: "a UNION b").left.keyPath == "a")
        #expect(NSExpression(format: "a UNION b").right.keyPath == "b")
        let subquery = NSExpression(format: "SUBQUERY(kids, $k, $k.age > 3)")
        #expect(subquery.expressionType == .subquery)
        #expect(subquery.predicate.predicateFormat == "$k.age > 3")
        let ternary = NSExpression(format: "TERNARY(a == 1, 'y', 'n')")
        #expect(ternary.true.constantValue as? String == "y")
        #expect(ternary.false.constantValue as? String == "n")
        #expect(NSExpression.expressionForEvaluatedObject().predicateFormat == "SELF")
        #expect(NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "x")]).predicateFormat == "sum:(x)")
        #expect(NSExpression(forAggregate: [NSExpression(forConstantValue: 1)]).predicateFormat == "{1}")
        #expect(NSExpression(forConstantValue: Date(timeIntervalSinceReferenceDate: 1.5)).predicateFormat == #"CAST(1.5, "NSDate")"#)
        #expect(NSExpression(format: "a") == NSExpression(forKeyPath: "a"))
        #expect(NSExpression.ExpressionType.conditional.rawValue == 20)
        let third = NSExpression(forFunction: "objectFrom:withIndex:", arguments: [
            NSExpression(forConstantValue: [1, 2, 3]), NSExpression(forConstantValue: 2)])
        #expect(third.expressionValue(with: nil, context: nil) as? Int == 3)
    }

    @Test("NSSortDescriptor orders by key path with Core Data's comparisons")
    func sortDescriptors() {
        let rows: [[String: Any]] = [
            ["name": "b", "age": 3], ["name": "B", "age": 1], ["name": "a10", "age": 2], ["name": "a9", "age": 2],
            ["age": 5],
        ]
        func names(_ descriptors: [NSSortDescriptor]) -> [String] {
            rows.sortedArray(using: descriptors).map { $0["name"] as? String ?? "-" }
        }
        #expect(names([NSSortDescriptor(key: "age", ascending: true)]) == ["B", "a10", "a9", "b", "-"])
        #expect(names([NSSortDescriptor(key: "age", ascending: false)]) == ["-", "b", "a10", "a9", "B"])
        #expect(names([NSSortDescriptor(key: "age", ascending: true), NSSortDescriptor(key: "name", ascending: false)])
            == ["B", "a9", "a10", "b", "-"])
        #expect(names([NSSortDescriptor(key: "name", ascending: true)]) == ["-", "B", "a10", "a9", "b"])
        #expect(names([NSSortDescriptor(key: "name", ascending: true, comparison: .localizedStandardCompare)]).prefix(3) == ["-", "a9", "a10"])
        let descriptor = NSSortDescriptor(key: "name", ascending: true, comparison: .caseInsensitiveCompare)
        #expect(descriptor.description == "(name, ascending, caseInsensitiveCompare:)")
        #expect(descriptor.reversedSortDescriptor.ascending == false)
        #expect(descriptor.compare(["name": "b"], to: ["name": "B"]) == .orderedSame)
        #expect(SortComparison.allCases.map(\.rawValue).contains("localizedStandardCompare:"))
    }
}
