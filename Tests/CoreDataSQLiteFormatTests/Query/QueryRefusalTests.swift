import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import TerminalText
import Testing

/// What SQL cannot express with the evaluator's semantics is refused, naming the construct and where it is.
@Suite("Query: refusals")
struct QueryRefusalTests {
    struct Refusal: Sendable, CustomTestStringConvertible {
        var format: String
        var construct: String
        /// The refused part, as it appears in the canonical format.
        var part: String
        var reason: String
        var testDescription: String { format }
    }

    static let refusals: [Refusal] = [
        Refusal(format: #"age > 1 AND FUNCTION(name, "reverse") == "x""#, construct: "FUNCTION expression",
                part: "FUNCTION(name, \"reverse\")", reason: "calls a method"),
        Refusal(format: "note == \"x\"", construct: "key path through a transient property", part: "note",
                reason: "Person.note is transient"),
        Refusal(format: "photo == nil", construct: "key path", part: "photo",
                reason: "Transformable attribute"),
        Refusal(format: "pets.name == \"Rex\"", construct: "to-many key path", part: "pets.name",
                reason: "needs ANY, ALL, NONE or an aggregate"),
        Refusal(format: "age + 1 > 3", construct: "function add:to:", part: "age + 1", reason: "only count:"),
        Refusal(format: "name MATCHES \"(\"", construct: "MATCHES comparison", part: "name MATCHES \"(\"",
                reason: "invalid regular expression"),
        Refusal(format: "name == 5", construct: "comparison", part: "name == 5", reason: "of another type"),
        Refusal(format: "born < 5", construct: "comparison", part: "born < 5", reason: "of another type"),
        Refusal(format: "shoeSize == 1", construct: "key path", part: "shoeSize", reason: "no property named 'shoeSize'"),
        Refusal(format: "name.initial == \"a\"", construct: "key path", part: "name.initial",
                reason: "cannot continue past it"),
        Refusal(format: "age == $limit", construct: "variable", part: "$limit", reason: "$limit is not bound"),
        Refusal(format: "pets[FIRST] == nil", construct: "index expression", part: "pets[FIRST]",
                reason: "no SQL form"),
        Refusal(format: "TERNARY(age > 3, 1, 2) == 1", construct: "TERNARY expression", part: "TERNARY(",
                reason: "not compiled"),
        Refusal(format: "pets.@distinctUnionOfObjects.name == \"Rex\"", construct: "@distinctUnionOfObjects aggregate",
                part: "pets.@distinctUnionOfObjects.name", reason: "only @count"),
        Refusal(format: "pets.@max.name == \"Rex\"", construct: "@max aggregate", part: "pets.@max.name",
                reason: "@max of a string attribute"),
        Refusal(format: "token < %@", construct: "comparison", part: "token <", reason: "UUID values have no order"),
        Refusal(format: "ANY pets.owner.pets.name == \"Rex\"", construct: "to-many key path",
                part: "pets.owner.pets.name", reason: "more than one to-many"),
        Refusal(format: "SUBQUERY(pets, $p, $p.weight > 1) == nil", construct: "SUBQUERY", part: "SUBQUERY(",
                reason: "only with .@count"),
        Refusal(format: "name BEGINSWITH age", construct: "comparison", part: "name BEGINSWITH age",
                reason: "compares string values with number values"),
        Refusal(format: "age BEGINSWITH score", construct: "BEGINSWITH comparison", part: "age BEGINSWITH score",
                reason: "between two number key paths"),
        Refusal(format: "ANYKEY == 1", construct: "ANYKEY", part: "ANYKEY", reason: "Spotlight"),
    ]

    @Test(arguments: refusals)
    func unsupportedConstructsAreRefused(_ refusal: Refusal) throws {
        let model = QueryTestStore.makeModel()
        let arguments: [Any?] = refusal.format.contains("%@") ? [UUID()] : []
        let predicate = try Predicates.NSPredicate(parsing: refusal.format, argumentArray: arguments)
        let error = #expect(throws: PredicateSQLError.self) {
            try PredicateSQLCompiler(model: model).fetch(entityName: "Person", predicate: predicate)
        }
        guard let error else { return }
        #expect(error.construct == refusal.construct, "\(error)")
        #expect(error.reason.contains(refusal.reason), "\(error)")
        #expect(error.predicateFormat == predicate.predicateFormat)
        let expectedOffset = predicate.predicateFormat.range(of: refusal.part).map {
            predicate.predicateFormat.utf8.distance(from: predicate.predicateFormat.startIndex, to: $0.lowerBound)
        }
        #expect(expectedOffset != nil, "'\(refusal.part)' is not in '\(predicate.predicateFormat)'")
        #expect(error.offset == expectedOffset, "\(error)")
        #expect(error.description.contains("cannot compile \(refusal.construct)"))
    }

    @Test func unknownEntityIsRefused() throws {
        let error = #expect(throws: PredicateSQLError.self) {
            try PredicateSQLCompiler(model: QueryTestStore.makeModel())
                .fetch(entityName: "Spaceship", predicate: Predicates.NSPredicate(parsing: "age > 1"))
        }
        #expect(error?.reason == "the model has no entity named 'Spaceship'")
    }

    @Test func sortOnAToManyKeyIsRefused() throws {
        let error = #expect(throws: PredicateSQLError.self) {
            try PredicateSQLCompiler(model: QueryTestStore.makeModel()).fetch(
                entityName: "Person", predicate: nil,
                sortDescriptors: [Predicates.NSSortDescriptor(key: "pets.name", ascending: true)])
        }
        #expect(error?.construct == "sort descriptor")
        #expect(error?.reason.contains("crosses a to-many relationship") == true)
    }

    @Test func caretDiagnosticCountsWideCharactersTwice() throws {
        let predicate = try Predicates.NSPredicate(parsing: #"name == "日本" AND age + 1 > 2"#)
        let error = #expect(throws: PredicateSQLError.self) {
            try PredicateSQLCompiler(model: QueryTestStore.makeModel()).fetch(entityName: "Person", predicate: predicate)
        }
        // `name == "` (9) + two wide characters (4) + `" AND ` (6) = column 19.
        let lines = error?.caretDiagnostic.split(separator: "\n") ?? []
        #expect(lines.last?.hasPrefix(String(repeating: " ", count: 19) + "^ cannot compile function add:to:") == true,
                "\(lines)")
    }

    /// An invisible character before the construct is shown as the terminal sanitiser shows it, and the caret is
    /// measured on what is shown (a second width table here once counted the raw character as one column).
    @Test func caretDiagnosticMeasuresTheSanitisedFormat() throws {
        let predicate = try Predicates.NSPredicate(parsing: "name == \"a\u{202E}b\" AND age + 1 > 2")
        let error = #expect(throws: PredicateSQLError.self) {
            try PredicateSQLCompiler(model: QueryTestStore.makeModel()).fetch(entityName: "Person", predicate: predicate)
        }
        let lines = error?.caretDiagnostic.split(separator: "\n").map(String.init) ?? []
        let format = try #require(error?.predicateFormat)
        let construct = try #require(format.range(of: "age + 1"))
        let column = DisplayWidth.of(TerminalSanitizer.sanitize(String(format[..<construct.lowerBound])))
        #expect(column > format.distance(from: format.startIndex, to: construct.lowerBound), "the bidi control is shown visibly")
        #expect(lines.count == 2)
        #expect(lines.first == TerminalSanitizer.sanitize(format))
        #expect(lines.first?.contains("\u{202E}") == false)
        #expect(lines.last?.hasPrefix(String(repeating: " ", count: column) + "^ cannot compile") == true, "\(lines)")
    }

    @Test func caretDiagnosticPointsAtTheConstruct() throws {
        let predicate = try Predicates.NSPredicate(parsing: #"age > 1 AND FUNCTION(name, "reverse") == "x""#)
        let error = #expect(throws: PredicateSQLError.self) {
            try PredicateSQLCompiler(model: QueryTestStore.makeModel()).fetch(entityName: "Person", predicate: predicate)
        }
        let lines = error?.caretDiagnostic.split(separator: "\n") ?? []
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix(String(repeating: " ", count: 12) + "^ cannot compile FUNCTION expression") == true)
    }
}
