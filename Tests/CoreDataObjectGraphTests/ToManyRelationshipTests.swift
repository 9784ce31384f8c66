import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing
import UndoManagement

/// Large to-many relationships built and emptied one object at a time, from either side, with inverses, exact
/// order and undo; the mutable set views; and random ordered edits undone to the start and redone to the end.
struct ToManyRelationshipTests {
    private func stack(undo: Bool = true) throws -> (TestStack, URL) {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 3)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        if undo { stack.context.undoManager = UndoManager() }
        return (stack, url)
    }

    private func fetch(_ entity: String, _ context: NSManagedObjectContext) throws -> [NSManagedObject] {
        try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity))
    }

    /// 20,000 ingredients join one recipe through their to-one side (the ordered inverse keeps their order), half of
    /// them leave again, and undo brings back every step exactly. A quadratic inverse would take minutes here.
    @Test func twentyThousandChildrenThroughTheToOneSide() throws {
        let (stack, _) = try stack()
        let context = stack.context
        try context.performAndWait {
            let recipe = try fetch("Recipe", context)[0]  // Recipe 1 has 1 ingredient
            let before = recipe.objectIDs(forRelationshipNamed: "ingredients")
            var added: [NSManagedObject] = []
            for index in 0..<20_000 {
                let ingredient = NSEntityDescription.insertNewObject(forEntityName: "Ingredient", into: context)
                ingredient.setValue("i\(index)", forKey: "name")
                ingredient.setValue(recipe, forKey: "recipe")
                added.append(ingredient)
            }
            context.processPendingChanges()
            let full = before + added.map(\.objectID)
            #expect(recipe.objectIDs(forRelationshipNamed: "ingredients") == full)
            for ingredient in added where ingredient.value(forKey: "name").map({ "\($0)".hasSuffix("1") }) == true {
                ingredient.setValue(nil, forKey: "recipe")  // every tenth, from the middle
            }
            for ingredient in added.suffix(5_000).reversed() { ingredient.setValue(nil, forKey: "recipe") }
            context.processPendingChanges()
            let kept = Set(added.prefix(15_000).filter { !"\($0.value(forKey: "name")!)".hasSuffix("1") }.map(\.objectID))
            let thinned = full.filter { before.contains($0) || kept.contains($0) }
            #expect(recipe.objectIDs(forRelationshipNamed: "ingredients") == thinned)
            #expect(added.allSatisfy { ($0.value(forKey: "recipe") != nil) == kept.contains($0.objectID) })
            context.undo()
            #expect(recipe.objectIDs(forRelationshipNamed: "ingredients") == full, "removals undone in place")
            context.undo()
            #expect(recipe.objectIDs(forRelationshipNamed: "ingredients") == before)
            #expect(!context.hasChanges)
            context.redo()
            context.redo()
            #expect(recipe.objectIDs(forRelationshipNamed: "ingredients") == thinned)
        }
    }

    /// 20,000 recipes join one chef through `mutableSetValue(forKey:)`: each gets the chef as its inverse; removing
    /// them through the set clears it again; undo and rollback restore both sides.
    @Test func twentyThousandChildrenThroughTheMutableSet() throws {
        let (stack, _) = try stack()
        let context = stack.context
        try context.performAndWait {
            let chefs = try fetch("Chef", context)
            let chef = chefs[0], other = chefs[1]
            let recipes = chef.mutableSetValue(forKey: "recipes")
            let before = recipes.count
            var added: [NSManagedObject] = []
            for index in 0..<20_000 {
                let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: context)
                recipe.setValue("r\(index)", forKey: "name")
                recipes.add(recipe)
                recipes.add(recipe)  // a second add changes nothing
                added.append(recipe)
            }
            context.processPendingChanges()
            #expect(recipes.count == before + 20_000)
            #expect(added.allSatisfy { $0.value(forKey: "chef") as? NSManagedObject === chef })
            // Moving one to another chef through that chef's set takes it out of the first set.
            other.mutableSetValue(forKey: "recipes").add(added[7])
            context.processPendingChanges()
            #expect(!recipes.contains(added[7]) && added[7].value(forKey: "chef") as? NSManagedObject === other)
            // Removing more than half leaves more holes than members: the storage compacts, and undo still works.
            for recipe in added.prefix(12_000) { recipes.remove(recipe) }
            context.processPendingChanges()
            #expect(recipes.count == before + 8_000)
            #expect(added.prefix(12_000).allSatisfy { $0.value(forKey: "chef") == nil || $0 === added[7] })
            context.undo()
            context.undo()
            #expect(recipes.count == before + 20_000 && added[7].value(forKey: "chef") as? NSManagedObject === chef)
            context.undo()
            #expect(recipes.count == before && !context.hasChanges)
            context.redo()
            #expect(recipes.count == before + 20_000)
            context.rollback()
            #expect(recipes.count == before && !context.hasChanges)
        }
    }

    /// Deleting every child of a parent nullifies each inverse in constant time.
    @Test func deletingTwentyThousandChildrenNullifiesTheirParent() throws {
        let (stack, _) = try stack(undo: false)
        let context = stack.context
        try context.performAndWait {
            let chef = try fetch("Chef", context)[0]
            let set = chef.mutableSetValue(forKey: "recipes")
            let recipes = (0..<20_000).map { index in
                let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: context)
                recipe.setValue("r\(index)", forKey: "name")
                set.add(recipe)
                return recipe
            }
            let before = set.count
            for recipe in recipes.shuffled() { context.delete(recipe) }
            context.processPendingChanges()
            #expect(set.count == before - 20_000)
        }
    }

    @Test func orderedMutableSetInsertsRemovesAndUndoesInPlace() throws {
        let (stack, url) = try stack()
        let context = stack.context
        let names = try context.performAndWait {
            let recipe = try fetch("Recipe", context)[2]  // Recipe 3: 3 ingredients
            let ingredients = recipe.mutableOrderedSetValue(forKey: "ingredients")
            let start = ingredients.allObjects
            #expect(start.count == 3)
            let a = NSEntityDescription.insertNewObject(forEntityName: "Ingredient", into: context)
            a.setValue("A", forKey: "name")
            let b = NSEntityDescription.insertNewObject(forEntityName: "Ingredient", into: context)
            b.setValue("B", forKey: "name")
            ingredients.insert(a, at: 0)
            ingredients.insert(b, at: 2)
            ingredients.insert(b, at: 0)  // already there: nothing happens
            context.processPendingChanges()
            #expect(ingredients.allObjects == [a, start[0], b, start[1], start[2]])
            #expect(a.value(forKey: "recipe") as? NSManagedObject === recipe && ingredients.index(of: b) == 2)
            ingredients.removeObject(at: 1)
            context.processPendingChanges()
            #expect(ingredients.allObjects == [a, b, start[1], start[2]] && start[0].value(forKey: "recipe") == nil)
            #expect(ingredients.object(at: 3) === start[2])
            context.undo()
            #expect(ingredients.allObjects == [a, start[0], b, start[1], start[2]])
            context.redo()
            context.delete(start[0])  // an ingredient needs a recipe to be saved
            try context.save()
            return ingredients.allObjects.map { SQLiteValue.text($0.value(forKey: "name") as! String) }
        }
        // The order keys follow the new order.
        let rows = try Connection(path: url.path, mode: .readOnly)
            .query("SELECT ZNAME FROM ZINGREDIENT WHERE ZRECIPE = 3 ORDER BY Z_FOK_RECIPE")
        #expect(rows.map { $0[0] } == names)
        #expect(names.prefix(2) == [.text("A"), .text("B")] && names.count == 4)
    }

    @Test func manyToManyThroughTheMutableSetMaintainsBothSides() throws {
        let (stack, url) = try stack()
        let context = stack.context
        try context.performAndWait {
            let recipes = try fetch("Recipe", context)
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("quick", forKey: "label")
            for recipe in recipes { recipe.mutableSetValue(forKey: "tags").add(tag) }
            #expect(tag.mutableSetValue(forKey: "recipes").count == 3)
            tag.mutableSetValue(forKey: "recipes").remove(recipes[1])
            #expect(recipes[1].mutableSetValue(forKey: "tags").count == 0)
            try context.save()
        }
        let connection = try Connection(path: url.path, mode: .readOnly)
        let join = try #require(connection.query("SELECT name FROM sqlite_master WHERE name LIKE 'Z_%TAGS'").first?.first)
        guard case .text(let table) = join else { return }
        #expect(try connection.scalar("SELECT count(*) FROM \(table)") == .integer(2))
    }

    /// Random edits of an ordered relationship from both sides, checked against a plain array after every step;
    /// undoing them all returns the exact start, redoing them all the exact end.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func randomOrderedEditsUndoExactly(seed: UInt64) throws {
        let (stack, _) = try stack()
        let context = stack.context
        var random = SeededRandom(seed: seed)
        try context.performAndWait {
            let recipes = try fetch("Recipe", context)
            let recipe = recipes[2], other = recipes[1]
            let set = recipe.mutableOrderedSetValue(forKey: "ingredients")
            var expected = set.allObjects.map(\.objectID)
            let start = expected
            var pool: [NSManagedObject] = []
            var steps = 0
            for _ in 0..<400 {
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:  // a new ingredient joins through its to-one side
                    let ingredient = NSEntityDescription.insertNewObject(forEntityName: "Ingredient", into: context)
                    ingredient.setValue("n\(steps)", forKey: "name")
                    ingredient.setValue(recipe, forKey: "recipe")
                    pool.append(ingredient)
                    expected.append(ingredient.objectID)
                case 2 where !expected.isEmpty:  // one leaves through its to-one side
                    let index = Int.random(in: 0..<expected.count, using: &random)
                    context.object(with: expected.remove(at: index)).setValue(nil, forKey: "recipe")
                case 3 where !expected.isEmpty:  // one moves to another recipe
                    let index = Int.random(in: 0..<expected.count, using: &random)
                    other.mutableOrderedSetValue(forKey: "ingredients").add(context.object(with: expected.remove(at: index)))
                case 4 where !expected.isEmpty:
                    let index = Int.random(in: 0..<expected.count, using: &random)
                    expected.remove(at: index)
                    set.removeObject(at: index)
                case 5:  // an orphan comes back at a random place
                    guard let orphan = pool.first(where: { $0.value(forKey: "recipe") == nil }) else { continue }
                    let index = Int.random(in: 0...expected.count, using: &random)
                    set.insert(orphan, at: index)
                    expected.insert(orphan.objectID, at: index)
                default:
                    continue
                }
                context.processPendingChanges()
                steps += 1
                #expect(set.allObjects.map(\.objectID) == expected)
            }
            let end = expected
            for _ in 0..<steps { context.undo() }
            #expect(set.allObjects.map(\.objectID) == start)
            #expect(!context.hasChanges)
            for _ in 0..<steps { context.redo() }
            #expect(set.allObjects.map(\.objectID) == end)
            #expect(set.allObjects.allSatisfy { $0.value(forKey: "recipe") as? NSManagedObject === recipe })
        }
    }
}
