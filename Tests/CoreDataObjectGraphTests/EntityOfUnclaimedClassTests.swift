import CoreDataModel
import CoreDataObjectGraph
import Testing

/// `entity()` of a class no loaded model claims. Apple's logs "No NSEntityDescriptions in any model claim the
/// NSManagedObject subclass … so +entity is confused" and returns nil, which Swift reads as an entity without a
/// name: code written for Apple's platforms falls back on the class's name then (CoreDataPlus's `entityName` does
/// `if let name = entity().name { return name }; return String(describing: Self.self)`).
struct EntityOfUnclaimedClassTests {
    final class NoEntityClaimsThis: NSManagedObject {}

    @Test func aClassNoModelClaimsHasAnEntityWithoutAName() {
        #expect(NoEntityClaimsThis.entity().name == nil)
        #expect(NoEntityClaimsThis.entity().properties.isEmpty)
    }

    @Test func managedObjectItselfHasAnEntityWithoutAName() {
        #expect(NSManagedObject.entity().name == nil)
    }
}
