import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

import class Predicates.NSExpression
import class Predicates.NSPredicate

/// A having predicate names an expression description by a variable, as Apple's do; and a fault whose context was
/// reset fires as Apple's does.
struct HavingVariableAndContextlessFaultTests {
    static func context(storeType: String) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        let url = storeType == NSSQLiteStoreType ? try TemporaryDirectory.make().appendingPathComponent("Items.sqlite") : nil
        try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aHavingPredicateReadsAnExpressionDescriptionThroughItsVariable(storeType: String) throws {
        let context = try Self.context(storeType: storeType)
        try context.performAndWait {
            for name in ["a", "a", "a", "b", "b", "c"] {
                NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue(name, forKey: "name")
            }
            try context.save()
            let count = NSExpressionDescription()
            count.name = "count"
            count.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "name")])
            count.expressionResultType = .integer64AttributeType
            let request = NSFetchRequest<NSDictionary>(entityName: "Item")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", count]
            request.propertiesToGroupBy = ["name"]
            request.havingPredicate = NSPredicate(format: "%@ > 1", NSExpression(forVariable: "count"))
            let rows = try context.fetch(request)
            #expect(Set(rows.compactMap { $0["name"] as? String }) == ["a", "b"], "groups of more than one")
        }
    }

    @Test func anExpressionGivenForPercentAtStandsAsItself() {
        #expect(NSPredicate(format: "%@ > 1", NSExpression(forVariable: "count")).predicateFormat == "$count > 1")
        #expect(NSPredicate(format: "name == %@", NSExpression(forKeyPath: "title")).predicateFormat == "name == title")
        #expect(NSPredicate(format: "name == %@", "title").predicateFormat == "name == \"title\"", "other objects stay constants")
    }

    @Test func aFaultWhoseContextWasResetFiresWithNoValues() throws {
        let context = try Self.context(storeType: NSSQLiteStoreType)
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("a", forKey: "name")
            try context.save()
            context.reset()
            #expect(item.isFault)
            #expect(item.managedObjectContext == nil)
            item.willAccessValue(forKey: nil)
            #expect(!item.isFault, "fired, as Apple's")
            #expect(item.value(forKey: "name") == nil, "nothing to read without a context")
            #expect("\(item.faultingError.map { "\($0)" } ?? "")".contains("no context"))
        }
    }
}
