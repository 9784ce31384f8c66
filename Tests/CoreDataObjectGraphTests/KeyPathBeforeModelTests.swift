import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// Only this file uses this class and entity name, so no model that knows it is loaded before the test runs.
final class EarlySortedRecipe: NSManagedObject {
    @Managed("title") var title: String?
}

/// `NSSortDescriptor(keyPath:ascending:)` made before any model is loaded, as test cases and repositories write it in
/// a stored property's initial value (`let request: NSFetchRequest<Movie> = { ... }()`), sorts once the model is there.
struct KeyPathBeforeModelTests {
    @Test func aSortDescriptorOnAKeyPathMadeBeforeTheModelSortsAFetch() throws {
        let early = NSSortDescriptor(keyPath: \EarlySortedRecipe.title, ascending: false)

        let recipe = NSEntityDescription()
        recipe.name = "EarlySortedRecipe"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        recipe.properties = [title]
        let model = NSManagedObjectModel()
        model.entities = [recipe]
        NSManagedObject.register(EarlySortedRecipe.self, forEntityName: "EarlySortedRecipe")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for name in ["Bread", "Soup", "Cake"] { EarlySortedRecipe(context: context).title = name }
            try context.save()
            let request = NSFetchRequest<EarlySortedRecipe>(entityName: "EarlySortedRecipe")
            request.sortDescriptors = [early]
            #expect(try context.fetch(request).map(\.title) == ["Soup", "Cake", "Bread"])
            #expect(early.key == "title")
            #expect(early == NSSortDescriptor(key: "title", ascending: false))
        }
    }
}
