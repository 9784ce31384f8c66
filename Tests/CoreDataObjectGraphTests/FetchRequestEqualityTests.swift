import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import Testing

/// Fetch requests are `NSObject`s as Apple's: equal when they fetch the same, hashable, and copyable with `copy()`.
struct FetchRequestEqualityTests {
    static func request() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Car")
        request.predicate = NSPredicate(format: "maker == %@", "FIAT")
        request.sortDescriptors = [NSSortDescriptor(key: "numberPlate", ascending: true)]
        request.fetchLimit = 10
        return request
    }

    @Test func requestsThatFetchTheSameAreEqual() {
        let first = Self.request(), second = Self.request()
        #expect(first == second)
        #expect(first.isEqual(second))
        #expect(first.hash == second.hash)
        #expect(Set([first, second]).count == 1)
        // The stores and the prefetched key paths do not take part, as in Apple's comparison.
        second.relationshipKeyPathsForPrefetching = ["owner"]
        #expect(first == second)
    }

    @Test(arguments: [
        "entity", "predicate", "sort", "limit", "offset", "batch", "resultType", "subentities", "faults", "pending",
        "distinct", "refresh", "propertiesToFetch", "groupBy", "having",
    ])
    func requestsThatDifferInWhatTheyFetchAreNotEqual(_ change: String) {
        let first = Self.request(), second = Self.request()
        switch change {
        case "entity": second.entityName = "Maker"
        case "predicate": second.predicate = NSPredicate(format: "maker == %@", "FCA")
        case "sort": second.sortDescriptors = [NSSortDescriptor(key: "numberPlate", ascending: false)]
        case "limit": second.fetchLimit = 11
        case "offset": second.fetchOffset = 1
        case "batch": second.fetchBatchSize = 20
        case "resultType": second.resultType = .managedObjectIDResultType
        case "subentities": second.includesSubentities = false
        case "faults": second.returnsObjectsAsFaults = false
        case "pending": second.includesPendingChanges = false
        case "distinct": second.returnsDistinctResults = true
        case "refresh": second.shouldRefreshRefetchedObjects = true
        case "propertiesToFetch": second.propertiesToFetch = ["maker"]
        case "groupBy": second.propertiesToGroupBy = ["maker"]
        default: second.havingPredicate = NSPredicate(format: "maker == %@", "FCA")
        }
        #expect(first != second, "\(change)")
    }

    @Test func aCopyFetchesTheSameAndSharesThePredicate() throws {
        let request = Self.request()
        request.propertiesToFetch = ["maker", NSExpressionDescription(name: "count", expression: NSExpression(format: "count:(maker)"),
                                                                      resultType: .integer64AttributeType)]
        request.resultType = .dictionaryResultType
        let copy = try #require(request.copy() as? NSFetchRequest<NSManagedObject>)
        #expect(copy !== request)
        #expect(copy == request)
        #expect(copy.predicate === request.predicate, "Apple's copy keeps the same predicate object")
        #expect(copy.entityName == "Car" && copy.fetchLimit == 10 && copy.resultType == .dictionaryResultType)
        copy.fetchLimit = 5
        #expect(request.fetchLimit == 10, "the copy is its own request")
        #expect(copy != request)
    }
}
