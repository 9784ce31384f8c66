import CoreDataTestSupport
import Foundation
import Testing

/// Issue 22, item 3: `--var NAME=VALUE` and `--args JSON` fill a predicate's `$variables` and `%@`/`%K` in every
/// command that takes one, and `predicate --variables JSON` substitutes before evaluating.
@Suite("Predicate variables and arguments")
struct PredicateInputsCommandTests {
    static func store() throws -> String {
        let path = try TemporaryDirectory.make(prefix: "predicate-inputs").appendingPathComponent("Recipes.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path, toPath: path)
        return path
    }

    static func count(_ arguments: [String]) throws -> Int? {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("query, count and aggregate give what the literal predicate gives")
    func readingCommands() throws {
        let path = try Self.store()
        let literal = try Self.count(["count", path, "Recipe", "minutes < 30 AND name BEGINSWITH 'C'"])
        #expect(literal.map { $0 > 0 } == true)
        #expect(try Self.count(["count", path, "Recipe", "minutes < $max AND %K BEGINSWITH %@", "--var", "max=30", "--args", #"["name", "C"]"#]) == literal)
        let query = try CommandRunner.run(["query", path, "Recipe", "minutes < $max AND name BEGINSWITH $start", "--var", "max=30",
                                           "--var", "start=C", "--keys", "name", "--format", "csv", "--no-header"])
        #expect(query.standardOutput.split(separator: "\r\n").count == literal)
        let aggregate = try CommandRunner.run(["aggregate", path, "Recipe", "minutes < %@", "--args", "[30]", "--count", "--format", "jsonl"])
        let expected = try Self.count(["count", path, "Recipe", "minutes < 30"])
        #expect(aggregate.standardOutput == "{\"count\":\(expected ?? -1)}\n", "\(aggregate.standardError)")
        // A text value stays text even when it looks like a number inside quotes.
        #expect(try Self.count(["count", path, "Chef", "name == $name", "--var", #"name="42""#]) == 0)
    }

    @Test("set and delete take them too")
    func editingCommands() throws {
        let path = try Self.store()
        let before = try #require(try Self.count(["count", path, "Recipe", "minutes == 5"]))
        #expect(before > 0)
        let set = try CommandRunner.run(["set", path, "Recipe", "minutes == $m", "servings=7", "--var", "m=5", "--yes"])
        #expect(set.status == 0, "\(set.standardError)")
        #expect(try Self.count(["count", path, "Recipe", "minutes == 5 AND servings == 7"]) == before)
        let delete = try CommandRunner.run(["delete", path, "Recipe", "minutes == %@", "--args", "[5]", "--yes"])
        #expect(delete.status == 0, "\(delete.standardError)")
        #expect(try Self.count(["count", path, "Recipe", "minutes == 5"]) == 0)
    }

    @Test("predicate --variables substitutes before evaluating and printing")
    func predicateVariables() throws {
        let evaluated = try CommandRunner.run(["predicate", "age > $min AND name == %@", "--variables", #"{"min": 30}"#, "--args", #"["Ana"]"#,
                                               "--evaluate", #"{"age": 31, "name": "Ana"}"#])
        #expect(evaluated.standardOutput == "true\n", "\(evaluated.standardError)")
        let printed = try CommandRunner.run(["predicate", "age > $min", "--variables", #"{"min": 30}"#])
        #expect(printed.standardOutput == "age > 30\n")
    }

    @Test("malformed values are usage errors naming the option")
    func badValues() throws {
        let path = try Self.store()
        let noEquals = try CommandRunner.run(["count", path, "Recipe", "minutes < $max", "--var", "max"])
        #expect(noEquals.status == 2 && noEquals.standardError.contains("--var takes NAME=VALUE"))
        let notArray = try CommandRunner.run(["count", path, "Recipe", "minutes < %@", "--args", #"{"a": 1}"#])
        #expect(notArray.status == 2 && notArray.standardError.contains("--args takes a JSON array"))
        let notObject = try CommandRunner.run(["predicate", "age > $min", "--variables", "[1]"])
        #expect(notObject.status == 2 && notObject.standardError.contains("--variables takes a JSON object"))
    }
}
