import CoreDataObjectGraph
import Foundation

/// Recipes: the shapes the seeds discuss in one store. Photos live in their own entity with external binary
/// storage (a big blob never rides along with a recipe list), `normalizedName` is the canonical search string,
/// `Chef.recipeCount` is a denormalised count kept right as recipes are added, and `ingredientCount` is derived by
/// the store's triggers (`ingredients.@count`).
struct RecipesSample: SampleGenerator {
    static let name = "Recipes"
    static let modelContents = SampleModels.recipes

    static func scale(for size: SampleSize) -> Int? {
        switch size {
        case .small: return 200
        case .large: return 20_000
        }
    }

    /// One recipe in this many (the first among them) gets a photo over the external-storage threshold: one in
    /// the small sample, ten in the large.
    static let externalPhotoEvery = 2_000

    let recipeCount: Int

    init(scale: Int) { recipeCount = scale }

    func generate(into writer: SampleStoreWriter, random: inout SampleRandom) throws {
        let cuisines = Self.cuisines.map { name, region in
            let cuisine = writer.insert("Cuisine")
            cuisine.setValue(name, forKey: "name")
            cuisine.setValue(region, forKey: "region")
            return cuisine
        }
        let tags = Self.tagLabels.map { label in
            let tag = writer.insert("Tag")
            tag.setValue(label, forKey: "label")
            return tag
        }
        var chefNames = Set<String>()
        let chefs = (0..<max(4, min(recipeCount / 8, 400))).map { _ in
            let chef = writer.insert("Chef")
            var name = SampleText.personName(&random)
            while !chefNames.insert(name).inserted { name = SampleText.personName(&random) }
            chef.setValue(name, forKey: "name")
            chef.setValue("\(SampleText.slug(name, separator: "."))@example.com", forKey: "email")
            chef.setValue(random.date(from: SampleText.epoch, years: 4), forKey: "joined")
            return chef
        }
        try writer.save()
        let cuisineIDs = cuisines.map(\.objectID), tagIDs = tags.map(\.objectID), chefIDs = chefs.map(\.objectID)
        try writer.saveAndReset()

        var recipesByChef = Array(repeating: 0, count: chefIDs.count)
        for index in 0..<recipeCount {
            // Some chefs are far more prolific than others, as in any real collection.
            let chefIndex = Int(pow(random.unit(), 1.8) * Double(chefIDs.count))
            let chef = writer.object(chefIDs[chefIndex])
            let recipe = insertRecipe(index: index, writer: writer, random: &random)
            recipe.setValue(chef, forKey: "chef")
            recipesByChef[chefIndex] += 1
            // The denormalised count changes in the same save as the relationship it counts.
            chef.setValue(Int32(recipesByChef[chefIndex]), forKey: "recipeCount")
            recipe.setValue(writer.object(random.pick(cuisineIDs)), forKey: "cuisine")
            let tagged = random.pick(random.int(in: 0...3), of: tagIDs).map(writer.object)
            recipe.setValue(tagged, forKey: "tags")
            if index % Self.externalPhotoEvery == 0 || random.chance(0.55) {
                recipe.setValue(insertPhoto(for: recipe, external: index % Self.externalPhotoEvery == 0, writer: writer, random: &random), forKey: "photo")
            }
            try writer.endUnit()
        }
        try writer.saveAndReset()
    }

    private func insertRecipe(index: Int, writer: SampleStoreWriter, random: inout SampleRandom) -> NSManagedObject {
        let recipe = writer.insert("Recipe")
        let main = random.pick(Self.mains)
        let name = "\(random.pick(Self.styles)) \(main.name) \(random.pick(Self.dishes))"
        recipe.setValue(name, forKey: "name")
        recipe.setValue(SampleText.canonical(name), forKey: "normalizedName")
        recipe.setValue(random.uuid(), forKey: "identifier")
        recipe.setValue(random.date(from: SampleText.epoch, years: 10), forKey: "created")
        recipe.setValue(main.isVegetarian, forKey: "isVegetarian")
        recipe.setValue(Int16(random.int(in: 1...48) * 5), forKey: "minutes")
        recipe.setValue(Int16(random.int(in: 1...8)), forKey: "servings")
        if random.chance(0.75) { recipe.setValue(Double(random.int(in: 2...10)) / 2, forKey: "rating") }
        if random.chance(0.4), let url = URL(string: "https://recipes.example.com/\(SampleText.slug(name))-\(index + 1)") {
            recipe.setValue(url, forKey: "source")
        }
        var ingredients: [NSManagedObject] = []
        for (ingredientName, unit, quarters) in [(main.name.lowercased(), main.unit, main.quarters)] + random.pick(random.int(in: 2...9), of: Self.ingredients) {
            let ingredient = writer.insert("Ingredient")
            ingredient.setValue(ingredientName, forKey: "name")
            ingredient.setValue(Decimal(random.int(in: quarters)) / 4, forKey: "quantity")
            ingredient.setValue(unit, forKey: "unit")
            ingredients.append(ingredient)
        }
        recipe.setValue(ingredients, forKey: "ingredients")
        let steps = [
            "Prepare the \(ingredients.count) ingredients.",
            "Cook the \(main.name.lowercased()) for \(random.int(in: 2...25)) minutes.",
            random.pick(Self.steps),
            random.pick(Self.steps),
            "Season to taste and serve.",
        ]
        recipe.setValue(steps.joined(separator: " "), forKey: "instructions")
        return recipe
    }

    private func insertPhoto(for recipe: NSManagedObject, external: Bool, writer: SampleStoreWriter,
                             random: inout SampleRandom) -> NSManagedObject {
        let photo = writer.insert("Photo")
        photo.setValue("\(recipe.value(forKey: "name") as? String ?? ""), \(random.pick(["plated", "from above", "in the pan", "served"]))",
                       forKey: "caption")
        let created = recipe.value(forKey: "created") as? Date ?? SampleText.epoch
        photo.setValue(created.addingTimeInterval(Double(random.int(in: 0...(30 * 86_400)))), forKey: "takenAt")
        photo.setValue(external ? SampleImage.external(random: &random) : SampleImage.ppm(width: 24, height: 18, random: &random),
                       forKey: "imageData")
        return photo
    }

    // MARK: Word lists

    static let cuisines = [
        ("Italian", "Europe"), ("French", "Europe"), ("Spanish", "Europe"), ("Greek", "Europe"), ("Turkish", "Europe"),
        ("Moroccan", "Africa"), ("Ethiopian", "Africa"), ("Nigerian", "Africa"), ("Lebanese", "Middle East"),
        ("Persian", "Middle East"), ("Indian", "Asia"), ("Thai", "Asia"), ("Vietnamese", "Asia"), ("Japanese", "Asia"),
        ("Korean", "Asia"), ("Chinese", "Asia"), ("Mexican", "Americas"), ("Peruvian", "Americas"), ("Brazilian", "Americas"),
        ("Québécois", "Americas"),
    ]

    static let tagLabels = [
        "quick", "weeknight", "comfort food", "spicy", "gluten-free", "dairy-free", "make-ahead", "one-pot", "festive",
        "summer", "winter", "kid-friendly", "brunch", "street food", "crowd-pleaser", "healthy",
    ]

    static let styles = [
        "Roasted", "Smoky", "Crispy", "Slow-Cooked", "Grilled", "Braised", "Zesty", "Creamy", "Spiced", "Honey-Glazed",
        "Caramelised", "Charred", "Herbed", "Fiery", "Rustic", "Classic", "Crème", "Golden", "Tangy", "Sautéed",
    ]

    struct Main {
        var name: String
        var isVegetarian: Bool
        var unit: String
        var quarters: ClosedRange<Int>
    }

    static let mains = [
        Main(name: "Chicken", isVegetarian: false, unit: "g", quarters: 800...3_200),
        Main(name: "Salmon", isVegetarian: false, unit: "g", quarters: 600...2_400),
        Main(name: "Lamb", isVegetarian: false, unit: "g", quarters: 800...3_200),
        Main(name: "Pork", isVegetarian: false, unit: "g", quarters: 800...2_800),
        Main(name: "Prawn", isVegetarian: false, unit: "g", quarters: 400...1_600),
        Main(name: "Beef", isVegetarian: false, unit: "g", quarters: 800...3_200),
        Main(name: "Tofu", isVegetarian: true, unit: "g", quarters: 800...2_000),
        Main(name: "Aubergine", isVegetarian: true, unit: "piece", quarters: 4...12),
        Main(name: "Chickpea", isVegetarian: true, unit: "can", quarters: 4...8),
        Main(name: "Mushroom", isVegetarian: true, unit: "g", quarters: 400...2_000),
        Main(name: "Jalapeño", isVegetarian: true, unit: "piece", quarters: 4...16),
        Main(name: "Halloumi", isVegetarian: true, unit: "g", quarters: 400...1_000),
        Main(name: "Lentil", isVegetarian: true, unit: "cup", quarters: 2...8),
        Main(name: "Pumpkin", isVegetarian: true, unit: "g", quarters: 1_000...4_000),
        Main(name: "Crêpe", isVegetarian: true, unit: "piece", quarters: 8...32),
    ]

    static let dishes = [
        "Soup", "Stew", "Curry", "Tacos", "Salad", "Risotto", "Pie", "Skewers", "Bowl", "Gratin", "Tagine", "Pasta",
        "Stir-Fry", "Sandwich", "Flatbread", "Pâté", "Frittata", "Dumplings", "Ramen", "Burrito",
    ]

    static let ingredients: [(String, String, ClosedRange<Int>)] = [
        ("onion", "piece", 4...12), ("garlic", "clove", 4...24), ("olive oil", "tbsp", 4...16), ("butter", "g", 100...400),
        ("salt", "tsp", 1...8), ("black pepper", "tsp", 1...4), ("lemon", "piece", 2...8), ("tomato", "piece", 4...24),
        ("crème fraîche", "ml", 200...800), ("coriander", "bunch", 2...4), ("cumin", "tsp", 2...8), ("paprika", "tsp", 2...8),
        ("ginger", "g", 40...200), ("chilli flakes", "tsp", 1...4), ("rice", "g", 600...1_600), ("flour", "g", 400...2_000),
        ("egg", "piece", 4...16), ("milk", "ml", 400...2_000), ("parmesan", "g", 100...400), ("spinach", "g", 200...800),
        ("coconut milk", "ml", 800...1_600), ("soy sauce", "tbsp", 4...12), ("honey", "tbsp", 2...8), ("thyme", "sprig", 4...16),
        ("piment d'Espelette", "pinch", 1...4), ("jalapeño", "piece", 2...8), ("feta", "g", 200...600), ("stock", "ml", 1_000...4_000),
    ]

    static let steps = [
        "Preheat the oven to 200 °C.", "Chop everything finely.", "Toast the spices in a dry pan.",
        "Let it rest for ten minutes.", "Stir in the herbs at the end.", "Simmer gently, partly covered.",
        "Reduce the sauce until glossy.", "Finish under a hot grill.", "Fold the mixture together lightly.",
    ]
}
