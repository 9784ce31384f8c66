import CoreDataObjectGraph
import Foundation
import Predicates
import Testing

/// A fetch whose predicate names a key the entity does not have is refused by every store type, as Apple raises
/// "keypath … not found in entity": evaluated in memory it would otherwise match nothing, silently.
struct UnknownKeyFetchTests {
    @Test(arguments: StoreTypeParityTests.storeTypes)
    func aPredicateOnAnUnknownKeyIsRefused(type: String) throws {
        let stack = try StoreTypeParityTests.RecipesStack(type)
        for format in ["spiciness == 3", "chef.nickname == 'x'", "minutes > 5 AND NOT (chef.nosuch == 1)"] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: format)
            let refusal = #expect(throws: (any Error).self, "\(type): \(format)") {
                try stack.context.performAndWait { try stack.context.count(for: request) }
            }
            let named = ["spiciness", "nickname", "nosuch"].contains { "\(refusal.map { "\($0)" } ?? "")".contains($0) }
            #expect(named, "\(type): the error names the unknown key: \(String(describing: refusal))")
        }
    }

    @Test(arguments: [NSInMemoryStoreType, NSXMLStoreType, NSBinaryStoreType])
    func aKeyInOtherLettersIsSuggested(type: String) throws {
        let stack = try StoreTypeParityTests.RecipesStack(type)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
        request.predicate = Predicates.NSPredicate(format: "MINUTES > 5")
        let refusal = #expect(throws: (any Error).self) {
            try stack.context.performAndWait { try stack.context.count(for: request) }
        }
        #expect("\(refusal.map { "\($0)" } ?? "")".contains("did you mean minutes?"), "\(String(describing: refusal))")
    }

    @Test(arguments: StoreTypeParityTests.storeTypes)
    func keyPathsTheModelKnowsStillEvaluate(type: String) throws {
        let stack = try StoreTypeParityTests.RecipesStack(type)
        let formats = ["chef.name == 'Chef 1'", "ingredients.@count > 1", "ANY ingredients.name BEGINSWITH 'L'",
                       "SUBQUERY(ingredients, $i, $i.quantity > 1).@count > 0", "self == nil OR minutes >= 0"]
        for format in formats {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = Predicates.NSPredicate(format: format)
            let inStore = try stack.context.performAndWait { try stack.context.count(for: request) }
            // The SQLite file the store was made from answers the same predicate (its compiler checks keys too).
            let reference = try StoreTypeParityTests.RecipesStack(NSSQLiteStoreType)
            let expected = try reference.context.performAndWait { try reference.context.count(for: request) }
            #expect(inStore == expected, "\(type): \(format)")
        }
    }
}
