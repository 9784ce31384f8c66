import OpenCoreData

/// The models of the benchmark stores, built in code so the suite needs no model files.
enum Models {
    /// The seeds' word list (WWDC 2007): one small entity, `Word`, with a few attributes of the common types.
    /// `indexed` adds the index on `text` a real word list would have (BEGINSWITH uses it).
    static func words(indexed: Bool) -> NSManagedObjectModel {
        let word = NSEntityDescription(name: "Word")
        word.setProperties([
            NSAttributeDescription(name: "text", type: .stringAttributeType),
            NSAttributeDescription(name: "length", type: .integer16AttributeType),
            NSAttributeDescription(name: "created", type: .dateAttributeType),
            NSAttributeDescription(name: "score", type: .doubleAttributeType),
        ])
        if indexed {
            word.indexes = [NSFetchIndexDescription(name: "byText", elements: [NSFetchIndexElementDescription(propertyName: "text")])]
        }
        return NSManagedObjectModel(entities: [word])
    }

    static let wordAttributes = ["text", "length", "created", "score"]

    /// GRDB's performance suite (`Tests/Performance`): one entity `Item` with ten 64-bit integers, as in its
    /// `PerformanceModel.xcdatamodel`.
    static func items() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item")
        item.setProperties(itemAttributes.map { NSAttributeDescription(name: $0, type: .integer64AttributeType) })
        return NSManagedObjectModel(entities: [item])
    }

    static let itemAttributes = (0..<10).map { "i\($0)" }

    /// Chefs, their recipes and the recipes' ingredients: a to-one (recipe → chef) and a to-many
    /// (recipe → ingredients) to prefetch, with inverses so the store records them as Core Data does.
    static func recipes() -> NSManagedObjectModel {
        let chef = NSEntityDescription(name: "Chef")
        let recipe = NSEntityDescription(name: "Recipe")
        let ingredient = NSEntityDescription(name: "Ingredient")

        let chefRecipes = relationship("recipes", to: "Recipe", inverse: "chef", toMany: true)
        chef.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), chefRecipes])

        recipe.setProperties([
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "minutes", type: .integer32AttributeType),
            relationship("chef", to: "Chef", inverse: "recipes", toMany: false),
            relationship("ingredients", to: "Ingredient", inverse: "recipe", toMany: true),
        ])
        ingredient.setProperties([
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "quantity", type: .doubleAttributeType),
            relationship("recipe", to: "Recipe", inverse: "ingredients", toMany: false),
        ])
        return NSManagedObjectModel(entities: [chef, ingredient, recipe])
    }

    private static func relationship(_ name: String, to destination: String, inverse: String, toMany: Bool) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
        relationship.inverseRelationshipName = inverse
        relationship.maxCount = toMany ? 0 : 1
        return relationship
    }
}
