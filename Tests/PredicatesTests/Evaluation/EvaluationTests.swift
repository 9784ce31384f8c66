import Foundation
import Predicates
import Testing

@Suite("Evaluation")
struct EvaluationTests {
    @Test("Predicates evaluated against a dictionary", arguments: [
        // Equality and ordering across numeric types.
        ("name == 'Ann'", true), ("name == 'ann'", false), ("name != 'Bob'", true), ("age == 34", true),
        ("age == 34.0", true), ("age > 33.5", true), ("age >= 34", true), ("age < 34", false), ("age <= 34", true),
        ("height > 1", true), ("height == 1.68", true), ("isActive == YES", true), ("isActive == 1", true),
        ("isActive == FALSE", false), ("amount == 10.5", true), ("amount > 10", true), ("ratio == 0.5", true),
        ("count64 == 7", true), ("boxed == 1", true), ("boxedBool == TRUE", true), ("age == '34'", false),
        ("name < 'Bob'", true), ("name > 'Ann'", false), ("'b' > name", true), ("1 == 1.0", true),
        // nil semantics.
        ("nickname == nil", true), ("nickname != nil", false), ("middleName == nil", true), ("name != nil", true),
        ("nickname < 5", false), ("nickname > 5", false), ("nickname BEGINSWITH 'a'", false), ("NOT nickname == 'x'", true),
        ("nickname IN {nil}", true), ("missing.deep.path == nil", true), ("nil == nil", true), ("nickname CONTAINS 'x'", false),
        ("name IN nickname", false), ("nickname MATCHES '.*'", false), ("nickname LIKE '*'", false),
        // Case, diacritics, ß, Turkish i, emoji, combining marks.
        ("name ==[c] 'ann'", true), ("name ==[c] 'ANN'", true), ("name ==[d] 'ann'", false),
        ("title ==[cd] 'CAFE AU LAIT'", true), ("title ==[c] 'CAFE AU LAIT'", false), ("title ==[d] 'Cafe au lait'", true),
        ("title ==[n] 'Café au lait'", true), ("title ==[n] 'café au lait'", false), ("title ==[cdn] 'cafe au lait'", false),
        ("street ==[c] 'STRASSE'", true), ("street == 'Strasse'", false), ("street CONTAINS[c] 'SS'", true),
        ("town ==[cd] 'istanbul'", true), ("town ==[c] 'istanbul'", false), ("town BEGINSWITH 'İ'", true),
        ("town BEGINSWITH 'I'", false), ("town BEGINSWITH[d] 'I'", true),
        ("emoji CONTAINS '👍'", true), ("emoji CONTAINS '❤️'", true), ("emoji ENDSWITH '👍🏽!'", true),
        ("emoji LIKE 'I ? ?!'", true), ("emoji LIKE 'I *!'", true), ("emoji MATCHES 'I .*!'", true),
        ("decomposed == precomposed", false), ("decomposed ==[c] precomposed", true), ("decomposed ==[n] precomposed", false),
        ("decomposed ==[d] 'ete'", true), ("decomposed LIKE[d] 'ete'", true), ("decomposed LIKE '???'", true),
        ("precomposed BEGINSWITH 'e'", false), ("precomposed BEGINSWITH[d] 'e'", true), ("decomposed BEGINSWITH[cd] 'É'", true),
        // String operators.
        ("name BEGINSWITH 'A'", true), ("name BEGINSWITH 'a'", false), ("name BEGINSWITH[c] 'a'", true),
        ("name ENDSWITH 'nn'", true), ("name CONTAINS 'n'", true), ("name CONTAINS 'x'", false), ("name BEGINSWITH ''", false),
        ("city CONTAINS[cd] 'ZURI'", true), ("'nn' IN name", true), ("'NN' IN[c] name", true),
        ("name LIKE 'A*'", true), ("name LIKE 'a*'", false), ("name LIKE[c] 'a*'", true), ("name LIKE 'A?n'", true),
        ("name LIKE '?'", false), ("name LIKE '*'", true), ("name LIKE '**n'", true), ("note LIKE 'line1*line2'", true),
        ("note LIKE 'line1?line2'", true), (#"pattern LIKE 'a\*b'"#, true), (#"name LIKE 'A\*'"#, false),
        ("pattern LIKE 'a?b'", true), ("name MATCHES 'A.*'", true), ("name MATCHES 'n+'", false), ("name MATCHES 'A|An'", false),
        ("name MATCHES 'A|Ann'", true), ("name MATCHES[c] 'ann'", true), (#"city MATCHES[cd] 'zur\w+'"#, true),
        (#"note MATCHES 'line1\nline2'"#, true), (#"amount MATCHES '\d+'"#, false), (#"address.zip MATCHES '\d{5}'"#, true),
        // Collections, aggregate qualifiers and collection operators.
        ("tags CONTAINS 'swift'", true), ("'linux' IN tags", true), ("'LINUX' IN[c] tags", true), ("tags CONTAINS 'x'", false),
        ("ANY tags BEGINSWITH 'co'", false), ("ANY tags BEGINSWITH[c] 'co'", true), ("SOME tags == 'linux'", true),
        ("ALL scores > 2", true), ("ALL scores > 3", false), ("NONE scores > 10", true), ("NONE scores > 7", false),
        ("ANY scores BETWEEN {4, 6}", true), ("scores.@count == 3", true), ("scores.@sum == 16", true),
        ("scores.@avg > 5.33", true), ("scores.@max == 8", true), ("scores.@min == 3", true), ("children.@count == 2", true),
        ("ANY children.age > 10", true), ("ALL children.age > 10", false), ("children.@avg.age == 8.5", true),
        ("children.@max.age == 12", true), ("children.@sum.age == 17", true), ("ANY children.name ==[cd] 'clea'", true),
        ("children.@distinctUnionOfObjects.name CONTAINS 'Bob'", true), ("ANY setOfTags == 'a'", true),
        ("nsArray.@sum == 6", true), ("nsDictionary.k == 'v'", true), ("ANY nsArray == 2", true),
        ("SUBQUERY(children, $c, $c.age > 10).@count == 1", true), ("SUBQUERY(children, $c, $c.age > 100).@count == 0", true),
        ("SUBQUERY(children, $c, $c.age > 1 AND name == 'Ann').@count == 2", true),
        ("SUBQUERY(children, $c, SUBQUERY($c.toys, $t, $t.price > 1).@count > 0)[SIZE] == 1", true),
        ("count:(children) == 2", true), ("sum:(scores) == 16", true), ("average:(children.age) == 8.5", true),
        ("max:(scores) == 8", true), ("min:(scores) == 3", true), ("median:(scores) == 5", true),
        ("stddev:({2, 4, 4, 4, 5, 5, 7, 9}) == 2", true), ("sum:(1, 2, 3) == 6", true), ("mode:({1, 2, 2}) == {2}", true),
        ("scores[FIRST] == 3", true), ("scores[LAST] == 8", true), ("scores[SIZE] == 3", true), ("scores[1] == 5", true),
        ("empty[FIRST] == nil", true), ("address['city'] == 'Paris'", true), ("address.city == 'Paris'", true),
        ("address[SIZE] == 2", true), ("children[LAST].name == 'Cléa'", true), ("empty.@count == 0", true),
        ("ALL empty > 1", true), ("ANY empty == 1", false), ("empty.@sum == 0", true), ("empty.@avg == nil", true),
        ("empty.@max == nil", true), ("age BETWEEN {30, 40}", true), ("age BETWEEN {34, 34}", true), ("age BETWEEN {35, 40}", false),
        ("name BETWEEN {'A', 'B'}", true), ("name IN {'Ann', 'Bob'}", true), ("name IN {'ann'}", false), ("name IN[c] {'ann'}", true),
        ("age IN {34.0}", true), ("{1, 2} CONTAINS 2", true), ("address CONTAINS 'Paris'", true),
        // Set expressions.
        ("{1, 2} UNION {2, 3} == {1, 2, 3}", true), ("({1, 2, 3} MINUS {2}) == {1, 3}", true),
        ("({1, 2, 3} INTERSECT {2, 5}).@count == 1", true), ("scores UNION {9} CONTAINS 9", true),
        // Arithmetic and functions.
        ("age + 1 == 35", true), ("age - 4 == 30", true), ("age * 2 == 68", true), ("age / 4 == 8.5", true),
        ("age ** 2 == 1156", true), ("modulus:by:(age, 5) == 4", true), ("-age == -34", true), ("flags & 2 == 2", true),
        ("flags | 1 == 7", true), ("flags ^ 2 == 4", true), ("1 + 2 * 3 == 7", true), ("(1 + 2) * 3 == 9", true),
        ("2 ** 3 ** 2 == 512", true), ("9223372036854775807 + 1 > 0", true), ("lowercase:(name) == 'ann'", true),
        ("uppercase:(name) == 'ANN'", true), ("canonical:(title) == 'cafe au lait'", true), ("length:(name) == 3", true), ("length:(emoji) == 10", true), ("name.length == 3", true), ("emoji.length == 10", true),
        ("FUNCTION(name, 'lowercaseString') == 'ann'", true), ("CAST('42', 'NSNumber') == 42", true),
        ("CAST(age, 'NSString') == '34'", true), ("abs:(-3) == 3", true), ("sqrt:(16) == 4", true), ("floor:(1.5) == 1", true),
        ("ceiling:(1.2) == 2", true), ("trunc:(-1.7) == -1", true), ("ln:(1) == 0", true), ("log:(100) == 2", true),
        ("exp:(0) == 1", true), ("onesComplement:(0) == -1", true), ("leftshift:by:(1, 3) == 8", true),
        ("rightshift:by:(8, 3) == 1", true), ("noindex:(name) == 'Ann'", true), ("random() < 1", true),
        ("randomn:(5) < 5", true), ("TERNARY(age > 30, 'old', 'young') == 'old'", true),
        ("TERNARY(age > 40, 'old', 'young') == 'old'", false),
        // Dates.
        ("birthday == CAST(0, 'NSDate')", true), ("birthday < CAST(1, 'NSDate')", true), ("birthday > now()", false),
        ("birthday BETWEEN {CAST(-1, 'NSDate'), CAST(1, 'NSDate')}", true), ("CAST(birthday, 'NSNumber') == 0", true),
        ("birthday == 0", false),
        // SELF, compounds and constants.
        ("SELF.name == 'Ann'", true), ("SELF != nil", true), ("TRUEPREDICATE", true), ("FALSEPREDICATE", false),
        ("name == 'Ann' AND age > 40", false), ("name == 'Ann' OR age > 40", true), ("NOT (name == 'Ann' AND age > 40)", true),
        ("NOT NOT name == 'Ann'", true),
    ])
    func evaluate(format: String, expected: Bool) throws {
        let predicate = try NSPredicate(parsing: format)
        #expect(try predicate.evaluateOrThrow(with: person) == expected)
        let reparsed = try NSPredicate(parsing: predicate.predicateFormat)
        #expect(reparsed.predicateNode == predicate.predicateNode)
        #expect(try reparsed.evaluateOrThrow(with: person) == expected, "canonical form: \(predicate.predicateFormat)")
    }

    @Test("Filtering an array of dictionaries", arguments: [
        ("age > 30", ["Ann", "Cléa", "Émile"]),
        ("city ==[cd] 'zurich'", ["Ann", "bob"]),
        ("city == nil", ["Dmitri", "Émile"]),
        ("city != nil", ["Ann", "bob", "Cléa", "ﬁona"]),
        ("name BEGINSWITH[cd] 'e'", ["Émile"]),
        ("name BEGINSWITH[c] 'fi'", ["ﬁona"]),
        ("name LIKE[c] '?o*'", ["bob"]),
        ("age IN {8, 17}", ["bob", "Dmitri"]),
        ("age BETWEEN {17, 34} AND NOT name == 'Ann'", ["bob", "Émile", "ﬁona"]),
        ("city BEGINSWITH[d] 'I'", ["ﬁona"]),
        ("name MATCHES '[A-Z].*'", ["Ann", "Cléa", "Dmitri"]),
        ("name < 'C'", ["Ann"]),
        ("name <[c] 'C'", ["Ann", "bob"]),
    ])
    func filter(format: String, names: [String]) throws {
        let predicate = try NSPredicate(parsing: format)
        let matched = try people.filter { try predicate.evaluateOrThrow(with: $0) }.map { $0["name"] as? String }
        #expect(matched == names)
    }

    @Test("SELF is the evaluated object itself", arguments: [
        ("SELF == 5", 5 as any Sendable, true), ("SELF IN {1, 5}", 5, true), ("SELF CONTAINS 'a'", "cat", true),
        ("SELF.@count == 3", [1, 2, 3], true), ("@sum == 6", [1, 2, 3], true), ("SELF[LAST] == 3", [1, 2, 3], true),
        ("ANY SELF > 2", [1, 2, 3], true), ("SELF == nil", Optional<Int>.none, true), ("SELF ==[c] 'ÉTÉ'", "été", true),
        ("SELF MATCHES '\\\\d+'", "123", true), ("SELF BETWEEN {1, 10}", 10.0, true),
    ])
    func evaluateSelf(format: String, object: any Sendable, expected: Bool) throws {
        #expect(try NSPredicate(parsing: format).evaluateOrThrow(with: object) == expected)
    }

    @Test("Variables come from substitution")
    func variables() throws {
        let predicate = NSPredicate(format: "age > $minimum AND name IN $names")
        #expect(predicate.evaluate(with: person, substitutionVariables: ["minimum": 30, "names": ["Ann", "Bob"]]))
        #expect(!predicate.evaluate(with: person, substitutionVariables: ["minimum": 40, "names": ["Ann"]]))
        #expect(predicate.withSubstitutionVariables(["minimum": 30, "names": ["Ann"]]).evaluate(with: person))
    }

    @Test("Evaluation failures are reported", arguments: [
        "age > $unbound", "name MATCHES '('", "FUNCTION(name, 'frobnicate') == 1", "scores[7] == 1", "ANYKEY == 1",
        "CAST(name, 'NSWhatever') == 1", "age BETWEEN 5", "distanceToLocation:fromLocation:(a, b) < 1",
        "modulus:by:(age, 0) == 1", "address[1] == 1",
    ])
    func failures(format: String) throws {
        let predicate = try NSPredicate(parsing: format)
        #expect(throws: PredicateEvaluationError.self) { try predicate.evaluateOrThrow(with: person) }
    }

    @Test("One comparison applied to two values, as a SQL function would use it")
    func directComparison() throws {
        #expect(try PredicateEvaluator.compare(.string("Straße"), .equalTo, .string("STRASSE"), options: .caseInsensitive))
        #expect(try PredicateEvaluator.compare(.string("Crème"), .beginsWith, .string("cre"), options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(try !PredicateEvaluator.compare(.null, .lessThan, .integer(1)))
        #expect(try PredicateEvaluator.compare(.string("a\nb"), .like, .string("a*b")))
    }

    @Test("Expressions evaluate to values")
    func expressionValues() throws {
        #expect(NSExpression(format: "scores.@sum").expressionValue(with: person, context: nil) as? Int == 16)
        #expect(NSExpression(format: "age * 2").expressionValue(with: person, context: nil) as? Int == 68)
        #expect(NSExpression(format: "uppercase:(name)").expressionValue(with: person, context: nil) as? String == "ANN")
        #expect(NSExpression(format: "children.name").expressionValue(with: person, context: nil) as? [String] == ["Bob", "Cléa"])
        let context = NSMutableDictionary(dictionary: ["x": 41])
        #expect(NSExpression(format: "$x + 1").expressionValue(with: nil, context: context) as? Int == 42)
        #expect(NSExpression(format: "nickname").expressionValue(with: person, context: nil) == nil)
        let wrongArity = PredicateEvaluator(evaluatedObject: nil)
        #expect(throws: PredicateEvaluationError.self) { try wrongArity.value(of: .function("uppercase:", [])) }
        #expect(throws: PredicateEvaluationError.self) { try wrongArity.value(of: .function("frobnicate:", [.constant(.integer(1))])) }
    }
}

@Suite("Cost estimates")
struct CostEstimateTests {
    @Test("Apple's ordering of predicate costs", arguments: [
        ("age > 3", "name BEGINSWITH 'a'"), ("name BEGINSWITH 'a'", "name CONTAINS 'a'"), ("name CONTAINS 'a'", "name MATCHES 'a'"),
        ("name BEGINSWITH[n] 'a'", "name BEGINSWITH[cd] 'a'"), ("name BEGINSWITH[c] 'a'", "name BEGINSWITH[cd] 'a'"),
        ("name == 'a'", "ANY tags == 'a'"), ("count:(tags) > 1", "SUBQUERY(tags, $t, $t == 'a').@count > 0"),
        ("name LIKE 'a*'", "name MATCHES 'a.*'"),
    ])
    func cheaper(cheap: String, expensive: String) throws {
        #expect(try PredicateParser.parsePredicate(cheap).estimatedCost < PredicateParser.parsePredicate(expensive).estimatedCost)
    }

    @Test("Reordering runs cheap operands first and keeps the meaning")
    func reordering() throws {
        let predicate = try PredicateParser.parsePredicate(
            "name MATCHES[cd] '.*nn' AND (title CONTAINS[cd] 'lait' OR age > 3) AND age == 34")
        let reordered = predicate.reorderedByEstimatedCost()
        #expect(reordered.predicateFormat == #"age == 34 AND (age > 3 OR title CONTAINS[cd] "lait") AND name MATCHES[cd] ".*nn""#)
        let evaluator = PredicateEvaluator(evaluatedObject: person)
        #expect(try evaluator.evaluate(reordered) == evaluator.evaluate(predicate))
    }
}
