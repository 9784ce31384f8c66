import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Testing

/// Values set through Apple's types (`userInfo` `[AnyHashable: Any]?`, `uniquenessConstraints` `[[Any]]`,
/// `versionIdentifiers` `Set<AnyHashable>`, `managedObjectClassName` `String!`) survive the model cache a store
/// keeps (`Z_MODELCACHE`), written as model files record them.
struct ModelCacheAppleTypesTests {
    private func roundTrip(_ model: NSManagedObjectModel) throws -> NSManagedObjectModel {
        let archived = try CompiledModelWriter.archive(model)
        return try ModelCache.model(fromCache: try ModelCache.deflate([UInt8](archived)), file: "round trip")
    }

    private func model() -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person")
        let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
        let email = NSAttributeDescription(name: "email", type: .stringAttributeType)
        person.setProperties([name, email])
        let pet = NSEntityDescription(name: "Pet")
        pet.managedObjectClassName = "Pet"
        pet.setProperties([NSAttributeDescription(name: "nickname", type: .stringAttributeType)])
        return NSManagedObjectModel(entities: [person, pet])
    }

    @Test func stringEntriesRoundTripAndOtherValuesAreWrittenAsText() throws {
        let model = model()
        let person = try #require(model.entitiesByName["Person"])
        let email = try #require(person.attributesByName["email"])
        person.userInfo = ["label": "People", "rank": 2, 7: "seven", "syncable": true]
        email.userInfo = ["placeholder": "name@example.com"]
        person.uniquenessConstraints = [[email], ["name", email]]
        model.versionIdentifiers = ["2.0", 3]

        let back = try roundTrip(model)
        let backPerson = try #require(back.entitiesByName["Person"])
        #expect(backPerson.userInfoStrings == ["label": "People", "rank": "2", "7": "seven", "syncable": "true"])
        #expect(backPerson.userInfo?["label"] as? String == "People")
        #expect(backPerson.attributesByName["email"]?.userInfo?["placeholder"] as? String == "name@example.com")
        #expect(backPerson.uniquenessConstraintNames == [["email"], ["name", "email"]])
        #expect(backPerson.versionHash == person.versionHash, "constraints given by property hash as by name")
        #expect(back.versionIdentifierStrings == ["2.0", "3"])
        #expect(backPerson.representedClassName == nil && backPerson.managedObjectClassName == "NSManagedObject",
                "an entity without a class is written without one")
        #expect(back.entitiesByName["Pet"]?.representedClassName == "Pet")
    }

    @Test func aConvertedKeyDoesNotHideAStringKeyOfTheSameText() {
        let entity = NSEntityDescription(name: "Thing")
        entity.userInfo = [1: "number", "1": "string"]
        #expect(entity.userInfoStrings == ["1": "string"])
        #expect(entity.userInfo?.count == 2, "in memory both entries stay, as set")
    }
}
