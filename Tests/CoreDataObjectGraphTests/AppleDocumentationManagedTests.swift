import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

// The sample Recipes model's classes (SampleStores/Recipes), written as Xcode's generated `+CoreDataClass` and
// `+CoreDataProperties` files write them, with the Linux edits of docs/PORTING.md only: `@objc(Recipe)` and the
// generated `fetchRequest()` deleted, `@NSManaged` → `@Managed`, `@objc(addTagsObject:) @NSManaged` →
// `@ManagedAccessor`. No class is registered: the entities find them through `managedObjectClassName`.

public class Recipe: NSManagedObject {}

extension Recipe {
    @Managed public var name: String?
    @Managed public var normalizedName: String?
    @Managed public var minutes: Int16
    @Managed public var servings: Int16
    @Managed public var rating: Double?
    @Managed public var isVegetarian: Bool
    @Managed public var created: Date?
    @Managed public var identifier: UUID?
    @Managed public var chef: Chef?
    @Managed public var tags: NSSet?
    @Managed public var ingredients: NSOrderedSet?
    /// The same attribute under another Swift name.
    @Managed("minutes") public var duration: Int
}

// MARK: Generated accessors for tags
extension Recipe {
    @ManagedAccessor public func addToTags(_ value: Tag)
    @ManagedAccessor public func removeFromTags(_ value: Tag)
    @ManagedAccessor public func addToTags(_ values: NSSet)
    @ManagedAccessor public func removeFromTags(_ values: NSSet)
}

// MARK: Generated accessors for ingredients
extension Recipe {
    @ManagedAccessor public func insertIntoIngredients(_ value: Ingredient, at idx: Int)
    @ManagedAccessor public func removeFromIngredients(at idx: Int)
    @ManagedAccessor public func insertIntoIngredients(_ values: [Ingredient], at indexes: NSIndexSet)
    @ManagedAccessor public func removeFromIngredients(at indexes: NSIndexSet)
    @ManagedAccessor public func replaceIngredients(at idx: Int, with value: Ingredient)
    @ManagedAccessor public func replaceIngredients(at indexes: NSIndexSet, with values: [Ingredient])
    @ManagedAccessor public func addToIngredients(_ value: Ingredient)
    @ManagedAccessor public func removeFromIngredients(_ value: Ingredient)
    @ManagedAccessor public func addToIngredients(_ values: NSOrderedSet)
    @ManagedAccessor public func removeFromIngredients(_ values: NSOrderedSet)
}

public class Chef: NSManagedObject {
    @Managed public var name: String?
    @Managed public var recipeCount: Int32
    @Managed public var recipes: NSSet?
}

public class Tag: NSManagedObject {
    @Managed public var label: String?
    /// Typed, as Xcode writes it when the model's codegen asks for Swift collections.
    @Managed public var recipes: Set<Recipe>
}

public class Ingredient: NSManagedObject {
    @Managed public var name: String?
    @Managed public var recipe: Recipe?
}

/// The managed-property declarations above used as Apple's documentation uses them: objects made with
/// `init(context:)`, typed properties, the generated relationship accessors, optional to-ones set to nil, typed
/// `Set` reads, ordered relationships, and Swift key paths, saved and read back.
struct AppleDocumentationManagedTests {
    private func container() throws -> NSPersistentContainer { try Self.recipesContainer() }

    private func recipe(_ name: String, in context: NSManagedObjectContext) -> Recipe { Self.recipe(name, in: context) }

    /// A container on a new SQLite file of the Recipes sample model (RefreshAndFaultingTests uses it too).
    static func recipesContainer() throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Recipes", managedObjectModel: try SampleStoreBuilder.recipesModel())
        let description = NSPersistentStoreDescription(url: try TemporaryDirectory.make().appendingPathComponent("Recipes.sqlite"))
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// A new recipe named `name`, with every required attribute set.
    static func recipe(_ name: String, in context: NSManagedObjectContext) -> Recipe {
        let recipe = Recipe(context: context)
        recipe.name = name
        recipe.normalizedName = name.lowercased()
        recipe.created = Date(timeIntervalSinceReferenceDate: 0)
        recipe.identifier = UUID()
        return recipe
    }

    private func tag(_ label: String, in context: NSManagedObjectContext) -> Tag {
        let tag = Tag(context: context)
        tag.label = label
        return tag
    }

    private func ingredient(_ name: String, in context: NSManagedObjectContext) -> Ingredient {
        let ingredient = Ingredient(context: context)
        ingredient.name = name
        return ingredient
    }

    @Test func propertiesReadAndWriteTheEntitysAttributesAndSurviveASave() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let soup = recipe("Soup", in: context)
            #expect(soup.minutes == 30 && soup.servings == 2 && !soup.isVegetarian, "the model's defaults")
            #expect(soup.rating == nil)
            soup.minutes = 45
            soup.rating = 4.5
            soup.isVegetarian = true
            #expect(soup.duration == 45, "@Managed(\"minutes\") reads the same attribute")
            soup.duration = 50
            #expect(soup.minutes == 50)
            #expect(soup.value(forKey: "minutes") as? Int16 == 50)
            try context.save()
        }

        let other = container.newBackgroundContext()
        try other.performAndWait {
            let request: NSFetchRequest<Recipe> = Recipe.fetchRequest()
            let fetched = try #require(try other.fetch(request).first)
            #expect(fetched.name == "Soup" && fetched.minutes == 50 && fetched.rating == 4.5 && fetched.isVegetarian)
            fetched.rating = nil
            try other.save()
        }
        try context.performAndWait {
            let soup = try #require(try context.fetch(Recipe.fetchRequest()).first)
            context.refresh(soup, mergeChanges: false)
            #expect(soup.rating == nil, "the other context's save, read after a refresh")
        }
    }

    @Test func fetchesReturnTheSubclassTheModelNamesWithoutARegistration() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let chef = Chef(context: context)
            chef.name = "Ada"
            let soup = recipe("Soup", in: context)
            soup.chef = chef
            try context.save()
        }

        let other = container.newBackgroundContext()
        try other.performAndWait {
            // Untyped requests by entity name, as older code writes them: the objects are still the subclasses.
            let recipes = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            let fetched = try #require(recipes.first as? Recipe)
            #expect(fetched.chef?.name == "Ada")
            let chefs = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            #expect(chefs.first is Chef)
        }
    }

    @Test func anOptionalToOneSetToNilClearsBothSides() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let chef = Chef(context: context)
            chef.name = "Ada"
            let soup = recipe("Soup", in: context)
            soup.chef = chef
            #expect(chef.recipes?.contains(soup) == true, "the inverse follows")
            soup.chef = nil
            #expect(soup.chef == nil)
            #expect(chef.recipes?.count == 0)
            try context.save()
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let fetched = try #require(try other.fetch(Recipe.fetchRequest()).first)
            #expect(fetched.chef == nil)
        }
    }

    @Test func theGeneratedAccessorsAddAndRemoveTags() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let soup = recipe("Soup", in: context)
            let (quick, cheap, hot) = (tag("quick", in: context), tag("cheap", in: context), tag("hot", in: context))
            soup.addToTags(quick)
            soup.addToTags(NSSet(array: [cheap, hot]))
            #expect(soup.tags?.count == 3)
            #expect(quick.recipes == [soup], "the inverse follows, read as a typed Set")
            soup.removeFromTags(cheap)
            #expect(cheap.recipes.isEmpty)
            soup.removeFromTags(NSSet(array: [hot]))
            #expect(Set((soup.tags ?? NSSet()).compactMap { ($0 as? Tag)?.label }) == ["quick"])
            try context.save()
        }

        let other = container.newBackgroundContext()
        try other.performAndWait {
            let request = Tag.fetchRequest()
            request.sortDescriptors = [NSSortDescriptor(key: "label", ascending: true)]
            let tags = try other.fetch(request)
            #expect(tags.map { $0.recipes.map(\.name) } == [[], [], ["Soup"]])
        }
    }

    @Test func aTypedSetIsAssignedAndReadAsASet() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let quick = tag("quick", in: context)
            let soup = recipe("Soup", in: context), salad = recipe("Salad", in: context)
            quick.recipes = [soup, salad]
            #expect(quick.recipes == [soup, salad])
            #expect(soup.tags?.contains(quick) == true && salad.tags?.count == 1)
            soup.tags = NSSet()
            #expect(quick.recipes == [salad])
            try context.save()
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let fetched = try #require(try other.fetch(Tag.fetchRequest()).first)
            #expect(fetched.recipes.map(\.name) == ["Salad"])
        }
    }

    @Test func orderedRelationshipsKeepTheOrderTheAccessorsMake() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let soup = recipe("Soup", in: context)
            let names = ["salt", "water", "leek", "potato", "cream", "pepper"]
            let made = Dictionary(uniqueKeysWithValues: names.map { ($0, ingredient($0, in: context)) })
            func order() -> [String] { (soup.ingredients?.array ?? []).compactMap { ($0 as? Ingredient)?.name } }

            soup.addToIngredients(made["water"]!)
            soup.insertIntoIngredients(made["salt"]!, at: 0)
            #expect(order() == ["salt", "water"])
            soup.insertIntoIngredients([made["leek"]!, made["potato"]!], at: NSIndexSet(indexesIn: NSRange(location: 1, length: 2)))
            #expect(order() == ["salt", "leek", "potato", "water"])
            soup.replaceIngredients(at: 0, with: made["cream"]!)
            #expect(order() == ["cream", "leek", "potato", "water"])
            #expect(made["salt"]!.recipe == nil, "the replaced object leaves the relationship")
            soup.removeFromIngredients(at: 1)
            #expect(order() == ["cream", "potato", "water"])
            soup.addToIngredients(NSOrderedSet(array: [made["pepper"]!, made["salt"]!]))
            soup.removeFromIngredients(at: NSIndexSet(indexesIn: NSRange(location: 0, length: 2)))
            #expect(order() == ["water", "pepper", "salt"])
            soup.replaceIngredients(at: NSIndexSet(index: 2), with: [made["leek"]!])
            soup.removeFromIngredients(made["water"]!)
            #expect(order() == ["pepper", "leek"])
            #expect(made["leek"]!.recipe === soup)
            // Every ingredient needs a recipe (the model says so): the ones left out go.
            for ingredient in made.values where ingredient.recipe == nil { context.delete(ingredient) }
            try context.save()
        }

        let other = container.newBackgroundContext()
        try other.performAndWait {
            let fetched = try #require(try other.fetch(Recipe.fetchRequest()).first)
            #expect((fetched.ingredients?.array ?? []).compactMap { ($0 as? Ingredient)?.name } == ["pepper", "leek"])
        }
    }

    @Test func swiftKeyPathsThroughManagedPropertiesNameTheirKeys() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, chefName) in [("Soup", "Cy"), ("Salad", "Ada"), ("Stew", "Bo")] {
                let chef = Chef(context: context)
                chef.name = chefName
                recipe(name, in: context).chef = chef
            }
            try context.save()
            #expect(NSSortDescriptor(keyPath: \Recipe.name, ascending: true).key == "name")
            #expect(NSSortDescriptor(keyPath: \Recipe.duration, ascending: true).key == "minutes")
            #expect(NSSortDescriptor(keyPath: \Recipe.chef?.name, ascending: true).key == "chef.name")
            #expect(NSExpression(forKeyPath: \Ingredient.recipe?.chef?.name).keyPath == "recipe.chef.name")
            #expect(NSManagedObject.key(for: \Recipe.tags) == "tags")
            let request = Recipe.fetchRequest()
            request.sortDescriptors = [NSSortDescriptor(keyPath: \Recipe.chef?.name, ascending: true)]
            #expect(try context.fetch(request).map(\.name) == ["Salad", "Stew", "Soup"])
        }
    }
}
