import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// `changedValuesForCurrentEvent()`: the keys and new values changed since the last objects-did-change notification,
/// as Apple documents it (an observer of that notification reads what the next event changes).
struct CurrentEventChangesTests {
    private func stack() throws -> TestStack {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 2)
        return try TestStack(storeURL: url, model: model, options: [:])
    }

    @Test func onlyTheChangesSinceTheLastObjectsDidChangeNotification() throws {
        let stack = try stack()
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let chef = try #require(try stack.context.fetch(request).first)
            #expect(chef.changedValuesForCurrentEvent().isEmpty)
            chef.setValue("First", forKey: "name")
            #expect(chef.changedValuesForCurrentEvent().mapValues { $0 as? String } == ["name": "First"])
            stack.context.processPendingChanges()
            // Announced: nothing is left for the current event, while changedValues() still has the unsaved change.
            #expect(chef.changedValuesForCurrentEvent().isEmpty)
            #expect(chef.changedValues().keys.sorted() == ["name"])
            chef.setValue("chef@example.com", forKey: "email")
            #expect(chef.changedValuesForCurrentEvent().mapValues { $0 as? String } == ["email": "chef@example.com"])
            chef.setValue("Second", forKey: "name")
            #expect(chef.changedValuesForCurrentEvent().keys.sorted() == ["email", "name"])
            #expect(chef.changedValues().keys.sorted() == ["email", "name"])
            try stack.context.save()
            #expect(chef.changedValuesForCurrentEvent().isEmpty)
            chef.setValue("Third", forKey: "name")
            #expect(chef.changedValuesForCurrentEvent().mapValues { $0 as? String } == ["name": "Third"])
        }
    }

    @Test func aLaterEventOfOtherKindsOfChangeDoesNotRepeatEarlierOnes() throws {
        let stack = try stack()
        try stack.context.performAndWait {
            let chefs = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            let chef = try #require(chefs.first)
            chef.setValue("One", forKey: "name")
            stack.context.processPendingChanges()
            chef.setValue("one@example.com", forKey: "email")
            stack.context.processPendingChanges()
            // A change to a to-many relationship only: the attributes changed in earlier events are not in this one.
            let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: stack.context)
            recipe.setValue("Soup", forKey: "name")
            chef.mutableSetValue(forKey: "recipes").add(recipe)
            #expect(chef.changedValuesForCurrentEvent().keys.sorted() == ["recipes"])
        }
    }

    @Test func anObserverOfObjectsDidChangeSeesEachEventsOwnChanges() throws {
        final class Box: @unchecked Sendable { var seen: [[String]] = [] }
        let stack = try stack()
        let box = Box()
        try stack.context.performAndWait {
            let chef = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef")).first)
            let token = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.objectsDidChangeNotification,
                                                               object: stack.context, queue: nil) { note in
                let updated = note.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject> ?? []
                box.seen.append(updated.flatMap { $0.changedValuesForCurrentEvent().keys }.sorted())
            }
            defer { NotificationCenter.default.removeObserver(token) }
            chef.setValue("A", forKey: "name")
            stack.context.processPendingChanges()
            chef.setValue("a@example.com", forKey: "email")
            stack.context.processPendingChanges()
        }
        #expect(box.seen == [["name"], ["email"]])
    }
}
