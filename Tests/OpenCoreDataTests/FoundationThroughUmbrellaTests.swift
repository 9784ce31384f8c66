import OpenCoreData
import Testing

/// Apple's `import CoreData` brings Foundation: a file that imports only the umbrella uses `Date`, `UUID`, `NSError`
/// and `NSDictionary` as Core Data code does. (This file imports nothing else on purpose: it compiles only if the
/// umbrella re-exports Foundation.)
struct FoundationThroughUmbrellaTests {
    @Test func foundationTypesAreVisibleWithOnlyTheUmbrellaImported() {
        let error = NSError(domain: NSCocoaErrorDomain, code: NSValidationMissingMandatoryPropertyError)
        #expect(error.domain == NSCocoaErrorDomain)
        let row: NSDictionary = ["id": UUID().uuidString, "at": Date(timeIntervalSince1970: 0)]
        #expect(row.count == 2)
        let entity = NSEntityDescription()
        entity.name = "Item"
        let attribute = NSAttributeDescription()
        attribute.name = "name"
        attribute.attributeType = .stringAttributeType
        entity.properties = [attribute]
        #expect(attribute.entity == entity, "an attribute's entity compares equal to the entity holding it")
        #expect(attribute.entity != NSEntityDescription())
        #expect(Set([entity, entity]).count == 1)
    }
}
