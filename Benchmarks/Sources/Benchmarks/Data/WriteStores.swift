import Foundation
import OpenCoreData

/// The data of the write workloads: the `Record` of an import (a remote identifier, indexed, as the seeds' find-or-create
/// needs, and four attributes of the common types) and a parent with ten cascading children.
enum WriteModels {
    static func records() -> NSManagedObjectModel {
        let record = NSEntityDescription(name: "Record")
        let remoteID = NSAttributeDescription(name: "remoteID", type: .integer64AttributeType)
        remoteID.isIndexed = true
        record.setProperties([
            remoteID,
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "value", type: .doubleAttributeType),
            NSAttributeDescription(name: "count", type: .integer32AttributeType),
            NSAttributeDescription(name: "created", type: .dateAttributeType),
        ])
        return NSManagedObjectModel(entities: [record])
    }

    /// `Parent.children` cascades to `Child.parent`, which nullifies: deleting a parent deletes its children.
    static func families() -> NSManagedObjectModel {
        let parent = NSEntityDescription(name: "Parent")
        let child = NSEntityDescription(name: "Child")
        let number = NSAttributeDescription(name: "number", type: .integer64AttributeType)
        number.isIndexed = true
        let children = NSRelationshipDescription(name: "children", destinationEntityName: "Child")
        children.inverseRelationshipName = "parent"
        children.maxCount = 0
        children.deleteRule = .cascadeDeleteRule
        let toParent = NSRelationshipDescription(name: "parent", destinationEntityName: "Parent")
        toParent.inverseRelationshipName = "children"
        toParent.maxCount = 1
        toParent.deleteRule = .nullifyDeleteRule
        parent.setProperties([number, NSAttributeDescription(name: "name", type: .stringAttributeType), children])
        child.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), toParent])
        return NSManagedObjectModel(entities: [child, parent])
    }
}

/// One record's values, generated before timing so that every contender writes exactly the same data.
struct RecordValues: Sendable {
    var remoteID: Int64
    var name: String
    var value: Double
    var count: Int32
    var created: Double

    var date: Date { Date(timeIntervalSinceReferenceDate: created) }

    /// `count` records with remote IDs `0, step, 2·step, …`, their other values drawn from a generator seeded with
    /// `seed`.
    static func generate(_ count: Int, step: Int64 = 1, seed: UInt64 = benchmarkSeed) -> [RecordValues] {
        var random = SeededGenerator(seed: seed)
        let letters = Array("etaoinshrdlcumwfgypbvkjxqz".utf8)
        return (0..<count).map { index in
            let length = Int.random(in: 4...14, using: &random)
            let name = String(decoding: (0..<length).map { _ in letters[Int.random(in: 0..<26, using: &random)] }, as: UTF8.self)
            return RecordValues(remoteID: Int64(index) * step, name: name, value: Double.random(in: 0..<1000, using: &random),
                                count: Int32.random(in: 0..<1000, using: &random),
                                created: Double.random(in: 0..<315_360_000, using: &random))
        }
    }
}

extension StoreFactory {
    /// A store of `model` holding the rows `fill` writes, in WAL mode as Core Data's are (the factory fills with no
    /// journal, which leaves the file in rollback mode): the template every write iteration copies.
    func writeTemplate(_ name: String, rows: Int, model: NSManagedObjectModel,
                       fill: @escaping (RawDatabase, StoreLayout) throws -> Void) throws -> URL {
        let url = try store(name, rows: rows, model: model, fill: fill)
        let database = try RawDatabase(path: url.path, readOnly: false)
        try database.execute("PRAGMA journal_mode = WAL")
        return url
    }

    /// An empty `Record` store.
    func emptyRecordStore() throws -> URL {
        try writeTemplate("records-empty", rows: 0, model: WriteModels.records()) { _, _ in }
    }

    /// An empty `Item` store (GRDB's ten integers): the template of the GRDB suite's insert.
    func emptyItemStore() throws -> URL {
        try writeTemplate("items-empty", rows: 0, model: Models.items()) { _, _ in }
    }

    /// `rows` records with remote IDs `0, step, 2·step, …` (the values of `RecordValues.generate`).
    func recordStore(rows: Int, step: Int64 = 1) throws -> URL {
        try writeTemplate("records-step\(step)", rows: rows, model: WriteModels.records()) { database, _ in
            let insert = try database.prepare(
                "INSERT INTO ZRECORD (Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME, ZVALUE, ZCOUNT, ZCREATED) VALUES (?, 1, 1, ?, ?, ?, ?, ?)")
            for (offset, record) in RecordValues.generate(rows, step: step, seed: benchmarkSeed + 1).enumerated() {
                insert.bind(Int64(offset + 1), at: 1)
                insert.bind(record: record, from: 2)
                _ = try insert.step()
                insert.reset()
            }
        }
    }

    /// `parents` parents numbered from 0, each with `childrenEach` children.
    func familyStore(parents: Int, childrenEach: Int) throws -> URL {
        let model = WriteModels.families()
        return try writeTemplate("families-\(childrenEach)", rows: parents, model: model) { database, layout in
            let parentNumber = layout.numbering["Parent"]!, childNumber = layout.numbering["Child"]!
            let insertParent = try database.prepare(
                "INSERT INTO ZPARENT (Z_PK, Z_ENT, Z_OPT, ZNUMBER, ZNAME) VALUES (?, \(parentNumber), 1, ?, ?)")
            let insertChild = try database.prepare(
                "INSERT INTO ZCHILD (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPARENT) VALUES (?, \(childNumber), 1, ?, ?)")
            var child: Int64 = 0
            for parent in 1...max(1, parents) where parents > 0 {
                insertParent.bind(Int64(parent), at: 1)
                insertParent.bind(Int64(parent - 1), at: 2)
                insertParent.bind("Parent \(parent)", at: 3)
                _ = try insertParent.step()
                insertParent.reset()
                for index in 0..<childrenEach {
                    child += 1
                    insertChild.bind(child, at: 1)
                    insertChild.bind("Child \(parent).\(index)", at: 2)
                    insertChild.bind(Int64(parent), at: 3)
                    _ = try insertChild.step()
                    insertChild.reset()
                }
            }
        }
    }
}

extension RawStatement {
    /// Binds remote ID, name, value, count and created at `first` and the four parameters after it.
    func bind(record: RecordValues, from first: Int32) {
        bind(record.remoteID, at: first)
        bind(record.name, at: first + 1)
        bind(record.value, at: first + 2)
        bind(Int64(record.count), at: first + 3)
        bind(record.created, at: first + 4)
    }
}

/// A scratch copy of a template store for one iteration of a write workload, so every iteration and every contender
/// starts from the same file. Copying happens before the stopwatch starts.
enum ScratchStore {
    static func copy(of template: URL) throws -> URL {
        let scratch = template.deletingLastPathComponent().appendingPathComponent("scratch-" + template.lastPathComponent)
        remove(scratch)
        try FileManager.default.copyItem(at: template, to: scratch)
        return scratch
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// What a write left in the store, folded into one number: the contenders of a workload must leave the same
    /// rows behind (`Z_OPT` aside), and `Z_MAX` must cover the keys. Read after the stopwatch stops.
    static func checksum(_ url: URL, entities: [String]) throws -> Int {
        let database = try RawDatabase(path: url.path)
        var sum = 0
        for entity in entities {
            let table = "Z" + entity.uppercased()
            let columns = try database.prepare("SELECT name FROM pragma_table_info('\(table)') WHERE name NOT IN ('Z_OPT', 'Z_PK')")
            var names: [String] = []
            while try columns.step() { names.append(columns.text(0) ?? "") }
            // Every column's values, order-independent: numbers summed, text by length and first byte.
            let folded = names.map { "total(CASE typeof(\($0)) WHEN 'text' THEN length(\($0)) * 31 + unicode(\($0)) ELSE \($0) END)" }
            let statement = try database.prepare("SELECT count(*), \(folded.joined(separator: ", ")) FROM \(table)")
            if try statement.step() {
                sum &+= Int(statement.int64(0))
                for index in 1...Int32(names.count) { sum &+= Int(statement.double(index).rounded()) }
            }
            let maximum = try database.scalar("SELECT ifnull(max(Z_PK), 0) FROM \(table)")
            let recorded = try database.scalar("SELECT ifnull(max(Z_MAX), 0) FROM Z_PRIMARYKEY WHERE Z_NAME = '\(entity)'")
            if recorded < maximum { sum = -1 }
        }
        return sum
    }
}
