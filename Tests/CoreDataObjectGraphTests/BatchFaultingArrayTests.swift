import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// The batched array's cost is measured in SQLite virtual-machine steps (never in time): serving the first batch,
/// the next one and the last one must cost the same at 100,000 and at 1,000,000 rows.
@Suite(.serialized)
struct BatchFaultingArrayTests {
    static func wordsModel() -> NSManagedObjectModel {
        let word = NSEntityDescription(name: "Word")
        let text = NSAttributeDescription(name: "text", type: .stringAttributeType)
        let length = NSAttributeDescription(name: "length", type: .integer16AttributeType)
        word.setProperties([text, length])
        word.indexes = [NSFetchIndexDescription(name: "byText", elements: [NSFetchIndexElementDescription(propertyName: "text")]),
                        NSFetchIndexDescription(name: "byLength", elements: [NSFetchIndexElementDescription(propertyName: "length")])]
        return NSManagedObjectModel(entities: [word])
    }

    /// A store of `rows` words `w0000001`… with lengths cycling 0–16, written by one SQL statement.
    static func wordsStore(rows: Int) throws -> (URL, NSManagedObjectModel) {
        let model = wordsModel()
        let url = try TemporaryDirectory.make().appendingPathComponent("Words.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute(sql: """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows))
            INSERT INTO ZWORD (Z_PK, Z_ENT, Z_OPT, ZLENGTH, ZTEXT) SELECT x, 1, 1, x % 17, printf('w%07d', x) FROM n
            """)
        return (url, model)
    }

    /// The VM steps the store spent while `body` ran.
    static func steps(_ stack: TestStack, _ body: () throws -> Void) rethrows -> Int {
        let before = stack.coordinator.statistics.snapshot.virtualMachineSteps
        try body()
        return stack.coordinator.statistics.snapshot.virtualMachineSteps - before
    }

    struct Costs: Equatable {
        var firstBatch: Int
        var nextBatch: Int
        var lastBatch: Int
    }

    static func costs(rows: Int, sortedBy key: String?) throws -> Costs {
        let (url, model) = try wordsStore(rows: rows)
        let stack = try TestStack(storeURL: url, model: model)
        return try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
            request.fetchBatchSize = 50
            request.sortDescriptors = key.map { [NSSortDescriptor(key: $0, ascending: true)] } ?? []
            let array = try stack.context.fetchBatched(request)
            var first = 0, next = 0, last = 0
            first = try steps(stack) { _ = try array.objects(inBatch: 0) }
            #expect(array.countIfKnown == nil, "the first screen does not count the entity")
            let expected = try stack.context.fetch({ () -> NSFetchRequest<NSManagedObject> in
                let probe = NSFetchRequest<NSManagedObject>(entityName: "Word")
                probe.sortDescriptors = request.sortDescriptors
                probe.fetchLimit = 100
                probe.resultType = .managedObjectResultType
                return probe
            }()).map(\.objectID)
            #expect(array[0].objectID == expected[0])
            next = try steps(stack) { _ = try array.objects(inBatch: 1) }
            #expect(array[50].objectID == expected[50])
            #expect(try array.computeCount() == rows)
            last = try steps(stack) { _ = try array.objects(inBatch: (rows - 1) / 50) }
            if key == nil { #expect(array[rows - 1].value(forKey: "text") as? String == String(format: "w%07d", rows)) }
            return Costs(firstBatch: first, nextBatch: next, lastBatch: last)
        }
    }

    // Sorting by an indexed number is served by its index. (Strings sort in Foundation's order through a collation,
    // which no index serves: that sort costs a full pass, at any batch size.)
    @Test(arguments: [nil, "length"] as [String?])
    func costsDoNotGrowWithTheEntity(sortKey: String?) throws {
        let small = try Self.costs(rows: 100_000, sortedBy: sortKey)
        let large = try Self.costs(rows: 1_000_000, sortedBy: sortKey)
        #expect(small.firstBatch > 0)
        #expect(large == small, "first, next and last batch cost the same VM steps at 10× the rows")
    }

    @Test func scrollingEndToEndKeepsMemoryBounded() throws {
        let (url, model) = try Self.wordsStore(rows: 5_000)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
            request.fetchBatchSize = 100
            let array = try stack.context.fetchBatched(request)
            array.maximumResidentBatches = 4
            var seen = 0
            for (index, word) in array.enumerated() {
                #expect(word.value(forKey: "text") as? String == String(format: "w%07d", index + 1))
                seen += 1
                #expect(array.residentBatches.count <= 4)
            }
            #expect(seen == 5_000)
            // Back to the top: the boundary kept after eviction lets it load by keyset again.
            #expect(array[0].value(forKey: "text") as? String == "w0000001")
        }
    }

    @Test func keysetHandlesNullsDuplicatesAndDescendingOrder() throws {
        let model = Self.wordsModel()
        let url = try TemporaryDirectory.make().appendingPathComponent("Words.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let connection = try Connection(path: url.path, mode: .readWrite)
        // 500 rows: text repeats every 7 rows and is NULL every 11th row.
        try connection.execute(sql: """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500)
            INSERT INTO ZWORD (Z_PK, Z_ENT, Z_OPT, ZLENGTH, ZTEXT)
            SELECT x, 1, 1, x % 5, CASE WHEN x % 11 = 0 THEN NULL ELSE printf('t%d', x % 7) END FROM n
            """)
        let stack = try TestStack(storeURL: url, model: model)
        for ascending in [true, false] {
            try stack.context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
                request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: ascending), NSSortDescriptor(key: "length", ascending: !ascending)]
                let expected = try stack.context.fetch(request).map(\.objectID)
                request.fetchBatchSize = 13
                let batched = try stack.context.fetchBatched(request)
                #expect(batched.map(\.objectID) == expected, "forward by keyset")
                let fresh = try stack.context.fetchBatched(request)
                _ = try fresh.computeCount()
                let backwards = (0..<fresh.count).reversed().map { fresh[$0].objectID }
                #expect(Array(backwards.reversed()) == expected, "backward from the end by keyset")
            }
        }
    }
}
