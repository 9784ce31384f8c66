@testable import CoreDataObjectGraph
import Foundation
import Testing

/// `FetchedRowStorage` frees the values it holds by hand (skipping those without references): every string and
/// boxed value must be released with its row, and nothing else touched.
struct FetchedRowStorageTests {
    final class Tracked {}

    @Test func freeingARowReleasesItsStringsAndBoxedValues() {
        weak var tracked: Tracked?
        weak var boxedArray: NSArray?
        do {
            let object = Tracked()
            let array = NSArray(array: [1, 2])
            tracked = object
            boxedArray = array
            let table = FetchedKeyTable(names: ["a", "b", "c", "d", "e", "f", "g"])
            let long = String(repeating: "long text that is not a small string ", count: 3)
            let values: [FetchedValue] = [.integer(1), .string(long), .other(object), .absent, .date(Date()), .other(array), .boolean(true)]
            let storage = FetchedRowStorage.make(count: values.count) { pointer in
                for (index, value) in values.enumerated() { (pointer + index).initialize(to: value) }
            }
            let row = FetchedDictionary(keyTable: table, storage: storage)
            #expect(row.count == 6 && row["b", as: String.self] == long)
            #expect(row["c", as: Tracked.self] === object)
            #expect(row.keys == ["a", "b", "c", "e", "f", "g"])
        }
        #expect(tracked == nil, "a boxed object is released with its row")
        #expect(boxedArray == nil)
    }

    @Test func keysAreFoundInAnyOrder() {
        let names = (0..<20).map { "key\($0)" }
        let small = FetchedKeyTable(names: Array(names.prefix(10)))
        let large = FetchedKeyTable(names: names)
        for table in [small, large] {
            let count = table.names.count
            // In order, backwards, and scattered: the next-key guess only changes where the scan starts.
            for position in Array(0..<count) + Array((0..<count).reversed()) + [3, 3, 0, 7, 1, 1] where position < count {
                #expect(table.position(of: "key\(position)") == position)
            }
            #expect(table.position(of: "missing") == nil && table.position(of: "") == nil)
        }
    }
}
