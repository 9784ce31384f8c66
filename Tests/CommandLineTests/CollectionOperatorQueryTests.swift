import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 22: `query --keys ingredients.@count` (and `@sum`, `@avg`, `@min`, `@max` of a to-many's attribute) is
/// computed by the store's SQL, a correlated subquery per key, and prints what the object path prints.
@Suite("query: collection operators through SQL")
struct CollectionOperatorQueryTests {
    /// The collection-operator keys of each entity of a store with a to-many relationship the store records (one
    /// with an inverse): `R.@count`, and per numeric attribute of the destination `@sum`, `@avg`, `@min`, `@max`
    /// (`@min`, `@max` for dates). `toMany` is one of the to-many relationships themselves, a key only objects give.
    struct EntityKeys {
        var entity: String
        var keys: [String]
        var toMany: String
    }

    static func entityKeys(_ path: String) throws -> [EntityKeys] {
        let schema = try OutputFormatTests.run(["schema", path, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any])
        let entities = try #require(report["entities"] as? [[String: Any]])
        let byName = Dictionary(entities.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        var result: [EntityKeys] = []
        for entity in entities {
            guard let name = entity["name"] as? String, let relationships = entity["relationships"] as? [[String: Any]] else { continue }
            var keys: [String] = []
            var toMany: String?
            for relationship in relationships where relationship["isToMany"] as? Bool == true && relationship["inverse"] is String {
                guard let relationshipName = relationship["name"] as? String,
                      let destination = byName[relationship["destination"] as? String ?? ""] else { continue }
                toMany = toMany ?? relationshipName
                keys.append("\(relationshipName).@count")
                for attribute in destination["attributes"] as? [[String: Any]] ?? [] where attribute["isTransient"] as? Bool == false {
                    let attributeName = attribute["name"] as? String ?? ""
                    switch attribute["type"] as? String {
                    case "Integer 16", "Integer 32", "Integer 64", "Boolean", "Double", "Float":
                        keys += ["@sum", "@avg", "@min", "@max"].map { "\(relationshipName).\($0).\(attributeName)" }
                    case "Date":
                        keys += ["@min", "@max"].map { "\(relationshipName).\($0).\(attributeName)" }
                    default:
                        break
                    }
                }
            }
            if let toMany { result.append(EntityKeys(entity: name, keys: keys, toMany: toMany)) }
        }
        return result
    }

    /// Runs `query` with the keys, through SQL, and again with the to-many relationship itself added as the last
    /// column, which sends the whole query through objects; the shared columns must be the same bytes, the SQL
    /// run must have computed them with subqueries and the object run without. JSON lines must parse strictly,
    /// CSV must read strictly with the header's field count on every record.
    static func checkBothPaths(_ path: String, _ keys: EntityKeys, label: String) throws -> Int {
        let joined = keys.keys.joined(separator: ",")
        let fast = try CommandRunner.run(["query", path, keys.entity, "--keys", joined, "--format", "jsonl", "--sql-debug", "1"])
        #expect(fast.status == 0, "\(label): \(fast.standardError)")
        #expect(fast.standardError.contains("(SELECT "), "\(label): the SQL run computes the keys in subqueries")
        // No SQL log here: the object path logs a statement per relationship, more than a pipe holds while
        // `CommandRunner` reads standard output to its end first.
        let slow = try CommandRunner.run(["query", path, keys.entity, "--keys", joined + "," + keys.toMany, "--format", "jsonl"])
        #expect(slow.status == 0, "\(label): \(slow.standardError)")
        let fastLines = fast.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let slowLines = slow.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(fastLines.count == slowLines.count, "\(label)")
        for (fastLine, slowLine) in zip(fastLines, slowLines) {
            let object = try JSONSerialization.jsonObject(with: Data(fastLine.utf8)) as? [String: Any]
            #expect(object?.count == Set(keys.keys).count, "\(label): \(fastLine)")
            #expect(slowLine.hasPrefix(String(fastLine.dropLast()) + ","), "\(label):\n\(fastLine)\n\(slowLine)")
        }
        let csv = try CommandRunner.run(["query", path, keys.entity, "--keys", joined, "--format", "csv"])
        #expect(csv.status == 0, "\(label): \(csv.standardError)")
        let records = try StrictCSVReader.records(Data(csv.standardOutput.utf8))
        #expect(records.count == fastLines.count + 1, "\(label)")
        #expect(records.allSatisfy { $0.count == keys.keys.count }, "\(label): every record has the header's fields")
        return fastLines.count
    }

    @Test("Collection operators print the object path's bytes on every sample")
    func samplesAgree() throws {
        var checked: [String] = []
        for sample in ["Recipes", "Photos", "Earthquakes", "Library"] {
            let directory = try TemporaryDirectory.make(prefix: "collection-operators")
            let path = directory.appendingPathComponent("\(sample).sqlite").path
            try FileManager.default.copyItem(
                atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/\(sample)/\(sample).sqlite").path, toPath: path)
            for keys in try Self.entityKeys(path) {
                let rows = try Self.checkBothPaths(path, keys, label: "\(sample) \(keys.entity)")
                if rows > 0 { checked.append("\(sample).\(keys.entity)") }
            }
        }
        // One-to-many (Recipe.ingredients, Chef.recipes) and many-to-many (Recipe.tags, through Z_nTAGS) both ran.
        #expect(checked.contains("Recipes.Recipe") && checked.contains("Recipes.Chef") && checked.contains("Recipes.Tag"), "\(checked)")
    }

    @Test("Collection operators print the object path's bytes on every fixture store with a to-many relationship",
          .enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func fixturesAgree() throws {
        var checked = 0
        for store in Fixtures.allStores() {
            let copy = try Fixtures.copy(store)
            for keys in try Self.entityKeys(copy.path) {
                _ = try Self.checkBothPaths(copy.path, keys, label: "\(store) \(keys.entity)")
                checked += 1
            }
        }
        #expect(checked > 0)
    }

    @Test("Empty collections: @count and @sum give 0, @avg, @min and @max print null, on both paths")
    func emptyCollections() throws {
        let path = try OutputFormatTests.plainStore()
        let keys = "name,recipes.@count,recipes.@sum.minutes,recipes.@avg.minutes,recipes.@min.created,recipes.@max.rating"
        // A chef with no recipes, added by SQL beside the sample's.
        let connection = try Connection(path: path, mode: .readWrite, busyTimeout: .seconds(5))
        try connection.execute(sql: "INSERT INTO ZCHEF (Z_PK, Z_ENT, Z_OPT, ZNAME, ZRECIPECOUNT) SELECT max(Z_PK) + 1, Z_ENT, 1, 'Nobody', 0 FROM ZCHEF")
        try connection.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Chef'")
        let fast = try OutputFormatTests.run(["query", path, "Chef", "name == 'Nobody'", "--keys", keys, "--format", "jsonl"])
        #expect(fast == #"{"name":"Nobody","recipes.@count":0,"recipes.@sum.minutes":0,"recipes.@avg.minutes":null,"recipes.@min.created":null,"recipes.@max.rating":null}"# + "\n")
        let slow = try OutputFormatTests.run(["query", path, "Chef", "name == 'Nobody'", "--keys", keys + ",recipes", "--format", "jsonl"])
        #expect(slow.hasPrefix(String(fast.dropLast(2)) + ","), "\(slow)")
        let csv = try OutputFormatTests.run(["query", path, "Chef", "name == 'Nobody'", "--keys", keys, "--format", "csv", "--null", "-"])
        #expect(csv == "name,recipes.@count,recipes.@sum.minutes,recipes.@avg.minutes,recipes.@min.created,recipes.@max.rating\r\nNobody,0,0,-,-,-\r\n")
    }
}
