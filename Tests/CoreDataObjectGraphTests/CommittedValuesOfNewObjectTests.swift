import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Testing

/// `committedValues(forKeys:)`: "the last fetched or saved keys and values of specified properties" (Apple's
/// documentation). An object inserted and not yet saved was never fetched or saved, so it has none; once saved,
/// the saved values; after a further change, still the saved ones.
struct CommittedValuesOfNewObjectTests {
    @Test func aNewObjectHasNoCommittedValuesUntilItIsSaved() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: stack.context)
            recipe.setValue("Soup", forKey: "name")
            recipe.setValue(Int16(20), forKey: "minutes")
            recipe.setValue("soup", forKey: "normalizedName")
            recipe.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "created")
            recipe.setValue(UUID(), forKey: "identifier")
            #expect(recipe.committedValues(forKeys: ["name", "minutes"]).isEmpty)
            #expect(recipe.committedValues(forKeys: nil).isEmpty)
            #expect(recipe.changedValues()["name"] as? String == "Soup")

            try stack.context.save()
            #expect(recipe.committedValues(forKeys: ["name"])["name"] as? String == "Soup")
            recipe.setValue("Stew", forKey: "name")
            #expect(recipe.committedValues(forKeys: ["name"])["name"] as? String == "Soup")
        }
    }
}
