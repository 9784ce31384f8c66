import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// Sums and averages of a Decimal attribute, declared decimal (`expressionResultType = .decimalAttributeType`), come
/// back as decimals (Apple's `NSDecimalNumber`), so `as? Decimal` and `as? [[String: Decimal]]` read them.
struct DecimalAggregateTests {
    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType])
    func sumAndAverageOfADecimalAttributeAreDecimals(type: String) throws {
        let movie = NSEntityDescription()
        movie.name = "Film"
        let boxOffice = NSAttributeDescription()
        boxOffice.name = "boxOffice"
        boxOffice.attributeType = .decimalAttributeType
        movie.properties = [boxOffice]
        let model = NSManagedObjectModel()
        model.entities = [movie]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = type == NSInMemoryStoreType ? nil : try TemporaryDirectory.make().appendingPathComponent("Films.store")
        try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for value in [10, 20, 30, 45] {
                NSEntityDescription.insertNewObject(forEntityName: "Film", into: context).setValue(NSDecimalNumber(value: value), forKey: "boxOffice")
            }
            try context.save()
            var results: [String: Any] = [:]
            for function in ["sum", "average", "min", "max"] {
                let description = NSExpressionDescription()
                description.name = function
                description.expression = Predicates.NSExpression(forFunction: "\(function):", arguments: [Predicates.NSExpression(forKeyPath: "boxOffice")])
                description.expressionResultType = .decimalAttributeType
                let request = NSFetchRequest<NSDictionary>(entityName: "Film")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = [description]
                let rows = try context.fetch(request)
                results[function] = rows.first?[function]
                #expect((rows as? [[String: Decimal]]) != nil, "\(function): the rows read as [[String: Decimal]]")
            }
            #expect(results["sum"] as? Decimal == 105)
            #expect(results["average"] as? Decimal == Decimal(string: "26.25"))
            #expect(results["min"] as? Decimal == 10)
            #expect(results["max"] as? Decimal == 45)
        }
    }
}
