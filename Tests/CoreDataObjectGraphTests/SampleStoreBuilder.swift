import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase

/// Builds a Recipes store (our own sample model) with deterministic rows written by plain SQL, so tests of the
/// read half do not depend on the write half.
enum SampleStoreBuilder {
    static func recipesModel() throws -> NSManagedObjectModel {
        try ModelLoader.loadModel(at: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld"))
    }

    /// `chefs` chefs; `recipes` recipes, recipe i by chef i % chefs, with i % 4 ingredients each.
    static func makeRecipesStore(chefs: Int = 5, recipes: Int = 40) throws -> (url: URL, model: NSManagedObjectModel) {
        let model = try recipesModel()
        let url = try TemporaryDirectory.make().appendingPathComponent("Recipes.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let layout = StoreLayout(model: model)
        let connection = try Connection(path: url.path, mode: .readWrite)
        try DerivedAttributeFunctions.register(on: connection)
        let chefNumber = layout.numbering["Chef"]!, recipeNumber = layout.numbering["Recipe"]!
        let ingredientNumber = layout.numbering["Ingredient"]!
        try connection.inTransaction {
            for chef in 1...chefs {
                try connection.execute(sql: "INSERT INTO ZCHEF (Z_PK, Z_ENT, Z_OPT, ZNAME, ZRECIPECOUNT) VALUES (?, ?, 1, ?, 0)",
                                       arguments: [.integer(Int64(chef)), .integer(Int64(chefNumber)), .text("Chef \(chef)")])
            }
            var ingredient = 0
            for recipe in 1...recipes {
                try connection.execute(
                    sql: """
                        INSERT INTO ZRECIPE (Z_PK, Z_ENT, Z_OPT, ZCHEF, ZMINUTES, ZSERVINGS, ZISVEGETARIAN, ZNAME, ZNORMALIZEDNAME, ZCREATED, ZRATING, ZIDENTIFIER)
                        VALUES (?, ?, 1, ?, ?, 2, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [.integer(Int64(recipe)), .integer(Int64(recipeNumber)), .integer(Int64((recipe - 1) % chefs + 1)),
                                .integer(Int64(recipe * 5 % 120)), .integer(Int64(recipe % 2)), .text("Recipe \(recipe)"),
                                .text("recipe \(recipe)"), .real(Double(recipe) * 86_400), recipe % 3 == 0 ? .null : .real(Double(recipe % 5)),
                                .blob(Array(repeating: 0, count: 15) + [UInt8(recipe % 256)])])
                for position in 0..<(recipe % 4) {
                    ingredient += 1
                    try connection.execute(
                        sql: "INSERT INTO ZINGREDIENT (Z_PK, Z_ENT, Z_OPT, ZRECIPE, Z_FOK_RECIPE, ZNAME, ZQUANTITY) VALUES (?, ?, 1, ?, ?, ?, ?)",
                        arguments: [.integer(Int64(ingredient)), .integer(Int64(ingredientNumber)), .integer(Int64(recipe)),
                                    .integer(Int64((4 - position) * 1024)), .text("Ingredient \(ingredient)"), .real(Double(position) + 0.25)])
                }
            }
            try connection.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT max(Z_PK) FROM ZCHEF) WHERE Z_NAME = 'Chef'")
            try connection.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT max(Z_PK) FROM ZRECIPE) WHERE Z_NAME = 'Recipe'")
            try connection.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT coalesce(max(Z_PK), 0) FROM ZINGREDIENT) WHERE Z_NAME = 'Ingredient'")
        }
        return (url, model)
    }
}
