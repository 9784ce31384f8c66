import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing
import UndoManagement

/// Undo and redo through a context: single changes, inserts and deletes with their cascades, and a property
/// test of random edit sequences undone to the start and redone to the end.
struct UndoTests {
    private func stack() throws -> TestStack {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 8)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        stack.context.undoManager = UndoManager()
        return stack
    }

    /// Everything an edit can change, for every object seen: presence, values and relationships.
    private func graph(_ objects: [NSManagedObject], in context: NSManagedObjectContext) -> [String] {
        objects.map { object in
            guard object.managedObjectContext === context, !object.isDeleted else { return "\(ObjectIdentifier(object)) absent" }
            let values = object.entity.allProperties.filter { !$0.isTransient }.map { property -> String in
                if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                    return "\(property.name)=\(object.objectIDs(forRelationshipNamed: property.name).map { "\($0)" }.sorted())"
                }
                return "\(property.name)=\(String(describing: object.value(forKey: property.name).map { ($0 as? NSManagedObject)?.objectID as Any? ?? $0 }))"
            }
            return "\(ObjectIdentifier(object)) " + values.joined(separator: " ")
        }
    }

    @Test func undoAndRedoOneChangeAndADeletionWithItsCascade() throws {
        let stack = try stack()
        try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[2]  // 3 ingredients
            recipe.setValue("Renamed", forKey: "name")
            stack.context.processPendingChanges()
            stack.context.undo()
            #expect(recipe.value(forKey: "name") as? String == "Recipe 3" && !stack.context.hasChanges)
            stack.context.redo()
            #expect(recipe.value(forKey: "name") as? String == "Renamed")
            stack.context.undo()
            let chef = try #require(recipe.value(forKey: "chef") as? NSManagedObject)
            stack.context.delete(recipe)
            stack.context.processPendingChanges()
            #expect(stack.context.deletedObjects.count == 4)
            stack.context.undo()
            #expect(stack.context.deletedObjects.isEmpty && !recipe.isDeleted)
            #expect((chef.value(forKey: "recipes") as? Set<NSManagedObject>)?.contains(recipe) == true, "the nullified inverse is back")
            #expect((recipe.value(forKey: "ingredients") as? [NSManagedObject])?.count == 3)
            try stack.context.save()
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomEditsUndoToTheStartAndRedoToTheEnd(seed: UInt64) throws {
        let stack = try stack()
        var random = SeededRandom(seed: seed)
        try stack.context.performAndWait {
            var objects = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
                + stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
                + stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Ingredient"))
            let start = graph(objects, in: stack.context)
            var steps = 0
            for _ in 0..<30 {
                let live = objects.filter { $0.managedObjectContext === stack.context && !$0.isDeleted }
                let recipes = live.filter { $0.entity.entityName == "Recipe" }, chefs = live.filter { $0.entity.entityName == "Chef" }
                switch Int.random(in: 0..<6, using: &random) {
                case 0 where !recipes.isEmpty:
                    recipes.randomElement(using: &random)!.setValue("name \(Int.random(in: 0..<99, using: &random))", forKey: "name")
                case 1 where !recipes.isEmpty:
                    recipes.randomElement(using: &random)!.setValue(Int16.random(in: 0..<300, using: &random), forKey: "minutes")
                case 2 where !recipes.isEmpty && !chefs.isEmpty:
                    recipes.randomElement(using: &random)!.setValue(Bool.random(using: &random) ? chefs.randomElement(using: &random)! : nil, forKey: "chef")
                case 3:
                    let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
                    chef.setValue("New \(steps)", forKey: "name")
                    objects.append(chef)
                case 4 where recipes.count > 1:
                    stack.context.delete(recipes.randomElement(using: &random)!)
                case 5 where !chefs.isEmpty && !recipes.isEmpty:
                    let chef = chefs.randomElement(using: &random)!
                    chef.setValue(Set(recipes.shuffled(using: &random).prefix(2)), forKey: "recipes")
                default:
                    continue
                }
                stack.context.processPendingChanges()
                steps += 1
            }
            let end = graph(objects, in: stack.context)
            for _ in 0..<steps { stack.context.undo() }
            let undone = graph(objects, in: stack.context)
            #expect(zip(undone, start).filter { $0 != $1 }.map { "\($0)\n  vs \($1)" } == [], "undoing every step returns to the start")
            #expect(!stack.context.hasChanges)
            for _ in 0..<steps { stack.context.redo() }
            #expect(graph(objects, in: stack.context) == end, "redoing every step reaches the end")
            try stack.context.save()
        }
    }
}
