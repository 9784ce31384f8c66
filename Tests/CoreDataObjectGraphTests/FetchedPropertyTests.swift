import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// Fetched properties evaluated on first access, as Apple documents `NSFetchedPropertyDescription`: the fetch request
/// runs with `$FETCH_SOURCE` and `$FETCHED_PROPERTY`, the result is an array, kept until the object is refreshed.
struct FetchedPropertyTests {
    /// Employees with a department name; `colleagues` fetches the others of the same department, `namesakes` those
    /// whose name starts with the fetched property's `userInfo` prefix, in the same department.
    static func model() -> NSManagedObjectModel {
        let employee = NSEntityDescription()
        employee.name = "Employee"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        let department = NSAttributeDescription()
        department.name = "department"
        department.attributeType = .stringAttributeType
        let colleaguesRequest = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        colleaguesRequest.predicate = Predicates.NSPredicate(format: "department == $FETCH_SOURCE.department AND name != $FETCH_SOURCE.name")
        colleaguesRequest.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
        let colleagues = NSFetchedPropertyDescription()
        colleagues.name = "colleagues"
        colleagues.fetchRequest = colleaguesRequest
        let namesakesRequest = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        namesakesRequest.predicate = Predicates.NSPredicate(
            format: "department == $FETCH_SOURCE.department AND name BEGINSWITH $FETCHED_PROPERTY.userInfo.prefix")
        let namesakes = NSFetchedPropertyDescription()
        namesakes.name = "namesakes"
        namesakes.fetchRequest = namesakesRequest
        namesakes.userInfo = ["prefix": "A"]
        employee.properties = [name, department, colleagues, namesakes]
        let model = NSManagedObjectModel()
        model.entities = [employee]
        return model
    }

    private func names(_ value: Any?) -> [String]? {
        (value as? [NSManagedObject])?.map { $0.value(forKey: "name") as? String ?? "?" }
    }

    @Test func aFetchedPropertyRunsItsRequestOnFirstAccessAndKeepsTheResultUntilRefreshed() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("E.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            var people: [String: NSManagedObject] = [:]
            for (name, department) in [("Ada", "R&D"), ("Alan", "R&D"), ("Grace", "R&D"), ("Anita", "Sales"), ("Bob", "Sales")] {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
                person.setValue(name, forKey: "name")
                person.setValue(department, forKey: "department")
                people[name] = person
            }
            try context.save()
            let grace = try #require(people["Grace"])
            #expect(names(grace.value(forKey: "colleagues")) == ["Ada", "Alan"])
            #expect(Set(names(grace.value(forKey: "namesakes")) ?? []) == ["Ada", "Alan"], "$FETCHED_PROPERTY.userInfo.prefix is A")
            #expect(Set(names(try #require(people["Bob"]).value(forKey: "namesakes")) ?? []) == ["Anita"])
            // A new colleague is not seen until the object is refreshed, as on Apple's platforms.
            let added = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            added.setValue("Barbara", forKey: "name")
            added.setValue("R&D", forKey: "department")
            try context.save()
            #expect(names(grace.value(forKey: "colleagues")) == ["Ada", "Alan"])
            context.refresh(grace, mergeChanges: true)
            #expect(names(grace.value(forKey: "colleagues")) == ["Ada", "Alan", "Barbara"])
        }
    }

    @Test("Apple's model: Author.feedbacks and favFeedbacks from the store's cached model",
          .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: the Apple fetched-property test is skipped"))
    func appleModelsFetchedPropertiesMatchHandWrittenSQL() throws {
        let copy = try Fixtures.copy("stores/coredataplus-derived-decimal-history/SampleModel2_V1.sqlite")
        let model = try #require(try SQLiteStoreFile(path: copy.path).cachedModel())
        let feedbacks = try #require(model.entitiesByName["Author"]?.propertiesByName["feedbacks"] as? NSFetchedPropertyDescription)
        #expect(feedbacks.fetchRequest?.sortDescriptors?.map(\.key) == ["rating"])
        let raw = try Connection(path: copy.path, mode: .readOnly)
        let stack = try TestStack(storeURL: copy, model: model)
        try stack.context.performAndWait {
            let authors = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author"))
            #expect(!authors.isEmpty)
            for author in authors {
                let alias = try #require(author.value(forKey: "alias") as? String)
                let expected = try raw.query("SELECT Z_PK FROM ZFEEDBACK WHERE ZAUTHORALIAS = ? ORDER BY ZRATING, Z_PK", arguments: [.text(alias)])
                    .map { $0[0].int64Value! }
                let fetched = try #require(author.value(forKey: "feedbacks") as? [NSManagedObject])
                #expect(fetched.map(\.objectID.primaryKey) == expected, "feedbacks of \(alias)")
                let favourites = try raw.query(
                    "SELECT Z_PK FROM ZFEEDBACK WHERE ZAUTHORALIAS = ? AND lower(ZCOMMENT) LIKE '%great%' ORDER BY Z_PK", arguments: [.text(alias)])
                    .map { $0[0].int64Value! }
                let fetchedFavourites = try #require(author.value(forKey: "favFeedbacks") as? [NSManagedObject])
                #expect(fetchedFavourites.map(\.objectID.primaryKey).sorted() == favourites, "favFeedbacks of \(alias)")
            }
        }
    }
}
