import CoreDataTestSupport
import Foundation

/// The `CREATE …` statements Apple's Core Data wrote for a fixture store, as recorded in its decoded
/// `METADATA*.txt` (section "Schema"), keyed by table or index name.
enum AppleSchema {
    static func statements(inMetadataFile relativePath: String) throws -> [String] {
        let text = try String(contentsOf: try Fixtures.original(relativePath), encoding: .utf8)
        guard let start = text.range(of: "## Schema") else { return [] }
        return text[start.upperBound...].split(separator: "\n")
            .map(String.init)
            .filter { $0.hasPrefix("CREATE ") }
    }

    static func createTableStatements(inMetadataFile relativePath: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for statement in try statements(inMetadataFile: relativePath) where statement.hasPrefix("CREATE TABLE ") {
            let name = statement.dropFirst("CREATE TABLE ".count).prefix { $0 != " " }
            result[String(name)] = statement.hasSuffix(";") ? String(statement.dropLast()) : statement
        }
        return result
    }
}
