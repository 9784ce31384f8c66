import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing
import UndoManagement

/// A to-one moved in a child context: both ends of the inverse reach the parent with the save, whether or not the
/// old destination was already loaded in the child or the parent, with undo managers on both and a picker's batched
/// fetch in between, as the browser's detail pane does. The browser met the old chef missing from the parent's
/// changes: in the child it lost the recipe while still a fault, and reading its name then filled it from the parent,
/// to-many list included, undoing the removal.
struct ChildInverseMaintenanceTests {
    @Test("Moving a recipe to another chef in a child: the parent sees both chefs changed, loaded in the child or not",
          arguments: [0, 1, 2], [0, 1, 2])
    func movingAToOneInAChild(loadOldChef: Int, parentRead: Int) throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 4)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let (recipeID, oldChefID, newChefID) = try stack.context.performAndWait {
            let recipes = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            recipes.returnsObjectsAsFaults = false
            let recipe = try stack.context.fetch(recipes)[0]
            let oldID = try #require(recipe.objectIDForToOne("chef"))
            let newID = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef")).first { $0.objectID != oldID }?.objectID)
            let old = stack.context.object(with: oldID)
            let new = stack.context.object(with: newID)
            if parentRead == 1 {
                // The old chef's label read in the parent with one fetch, as a table does.
                let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
                request.predicate = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [[oldID]])
                request.returnsObjectsAsFaults = false
                _ = try stack.context.fetch(request).map { $0.value(forKey: "name") }
            }
            if parentRead == 2 {
                _ = (old.value(forKey: "recipes") as? Set<NSManagedObject>)?.count
                _ = (new.value(forKey: "recipes") as? Set<NSManagedObject>)?.count
            }
            return (recipe.objectID, old.objectID, new.objectID)
        }
        stack.context.performAndWait { stack.context.undoManager = UndoManager() }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        child.performAndWait { child.undoManager = UndoManager() }
        try child.performAndWait {
            let recipe = try child.existingObject(with: recipeID)
            switch loadOldChef {
            case 1:
                // Read through the relationship, firing the chef's fault in the child.
                let old = try #require(recipe.value(forKey: "chef") as? NSManagedObject)
                _ = old.value(forKey: "name")
            case 2:
                // Fetched in the child (as a label lookup does), with its values.
                let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
                request.predicate = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [[oldChefID]])
                request.returnsObjectsAsFaults = false
                _ = try child.fetch(request).map { $0.value(forKey: "name") }
            default:
                break
            }
        }
        // A picker lists the chefs in the parent, a batch at a time, with their values.
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.fetchBatchSize = 20
            request.returnsObjectsAsFaults = false
            _ = try stack.context.fetchBatched(request).objects(inBatch: 0)
        }
        try child.performAndWait {
            let recipe = try child.existingObject(with: recipeID)
            let new = try child.existingObject(with: newChefID)
            child.undoManager?.beginUndoGrouping()
            recipe.setValue(new, forKey: "chef")
            child.processPendingChanges()
            child.undoManager?.endUndoGrouping()
            if loadOldChef == 0 {
                // The old chef, still a fault when it lost the recipe, is read now: firing its fault must not put
                // back the parent's list of its recipes (the bug the browser met).
                let old = try child.existingObject(with: oldChefID)
                _ = old.value(forKey: "name")
                #expect(!old.objectIDs(forRelationshipNamed: "recipes").contains(recipeID))
            }
            if loadOldChef == 2 {
                // The labels are read again after the change, old and new chef.
                let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
                request.predicate = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [[oldChefID, newChefID]])
                request.returnsObjectsAsFaults = false
                _ = try child.fetch(request).map { $0.value(forKey: "name") }
            }
        }
        stack.context.performAndWait {
            stack.context.processPendingChanges()
            stack.context.undoManager?.beginUndoGrouping()
        }
        try child.performAndWait {
            try child.save()
        }
        stack.context.performAndWait {
            stack.context.processPendingChanges()
            stack.context.undoManager?.endUndoGrouping()
        }
        stack.context.performAndWait {
            let updated = Set(stack.context.updatedObjects.map(\.objectID))
            #expect(updated == [recipeID, oldChefID, newChefID], "\(updated)")
            let old = stack.context.object(with: oldChefID)
            let new = stack.context.object(with: newChefID)
            #expect(!old.objectIDs(forRelationshipNamed: "recipes").contains(recipeID))
            #expect(new.objectIDs(forRelationshipNamed: "recipes").contains(recipeID))
        }
    }
}
