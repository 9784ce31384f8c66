import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// `enumerateDictionaries(_:_:)`: the rows of a dictionary fetch streamed one at a time, the same rows in the same
/// order as `fetch(_:)` returns, with limits, key paths through to-one relationships and (fetched whole) having.
struct EnumerateDictionariesTests {
    private func both(_ context: NSManagedObjectContext, configure: (NSFetchRequest<FetchedDictionary>) -> Void) throws
        -> (streamed: [FetchedDictionary], fetched: [FetchedDictionary])
    {
        let request = NSFetchRequest<FetchedDictionary>(entityName: "Recipe")
        request.resultType = .dictionaryResultType
        configure(request)
        var streamed: [FetchedDictionary] = []
        try context.enumerateDictionaries(request) { streamed.append($0) }
        return (streamed, try context.fetch(request))
    }

    @Test func streamedRowsAreTheFetchedRows() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 30)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let configurations: [(NSFetchRequest<FetchedDictionary>) -> Void] = [
                { $0.propertiesToFetch = ["name", "minutes", "chef.name"] },
                { request in
                    request.propertiesToFetch = ["name", "chef"]
                    request.predicate = Predicates.NSPredicate(format: "minutes > 10")
                    request.sortDescriptors = [Predicates.NSSortDescriptor(key: "chef.name", ascending: false)]
                    request.fetchLimit = 7
                    request.fetchOffset = 3
                },
                { request in
                    let count = NSExpressionDescription(name: "count", expression: Predicates.NSExpression(
                        forFunction: "count:", arguments: [Predicates.NSExpression.expressionForEvaluatedObject()]), resultType: .integer64AttributeType)
                    request.propertiesToFetch = ["chef.name", count]
                    request.propertiesToGroupBy = ["chef.name"]
                    request.havingPredicate = Predicates.NSPredicate(format: "count > 0")
                },
            ]
            for configure in configurations {
                let (streamed, fetched) = try both(stack.context, configure: configure)
                #expect(!streamed.isEmpty)
                #expect(streamed == fetched)
            }
        }
    }

    @Test func anErrorFromTheBodyStopsTheFetch() throws {
        struct Stop: Error {}
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 10)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<FetchedDictionary>(entityName: "Recipe")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name"]
            var seen = 0
            #expect(throws: Stop.self) {
                try stack.context.enumerateDictionaries(request) { _ in
                    seen += 1
                    if seen == 3 { throw Stop() }
                }
            }
            #expect(seen == 3)
            // The store is usable afterwards: the statement was reset.
            #expect(try stack.context.fetch(request).count == 10)
        }
    }
}
