import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Save errors read as Apple's documentation reads them: through `NSError`, in `NSCocoaErrorDomain`, with the codes of
/// `CoreDataErrors.h` and the validation keys in `userInfo`.
struct CocoaErrorTests {
    private static func model() -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person")
        let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
        name.isOptional = false
        let age = NSAttributeDescription(name: "age", type: .integer16AttributeType)
        age.maximumValueString = "150"
        person.setProperties([name, age])
        return NSManagedObjectModel(entities: [person])
    }

    private func context() throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let url = try TemporaryDirectory.make().appendingPathComponent("People.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func aMissingMandatoryValueIsAnNSErrorWithApplesKeys() throws {
        let context = try context()
        context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch {
                // `catch let error as NSError` does not match a Swift error on Linux (docs/DEVIATIONS.md).
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.code == NSValidationMissingMandatoryPropertyError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
                #expect((error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject) === person)
                #expect(error.localizedDescription.contains("name"))
            }
        }
    }

    @Test func severalFailuresAreDetailedErrorsEachWithItsObjectAndKey() throws {
        let context = try context()
        context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(Int16(200), forKey: "age")
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch {
                let nsError = error as NSError
                #expect(nsError.domain == NSCocoaErrorDomain)
                #expect(nsError.code == NSValidationMultipleErrorsError)
                let detailed = nsError.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                #expect(detailed.map(\.code).sorted() == [NSValidationNumberTooLargeError, NSValidationMissingMandatoryPropertyError].sorted())
                #expect(Set(detailed.compactMap { $0.userInfo[NSValidationKeyErrorKey] as? String }) == ["name", "age"])
                #expect(detailed.allSatisfy { ($0.userInfo[NSValidationObjectErrorKey] as? NSManagedObject) === person })
                let tooLarge = detailed.first { $0.code == NSValidationNumberTooLargeError }
                #expect(tooLarge?.userInfo[NSValidationValueErrorKey] as? Int == 200)
            }
        }
    }

    @Test func theErrorIsACustomNSErrorWithApplesDomain() {
        let error = CoreDataError(.persistentStoreIncompatibleVersionHash, "the model does not match the store")
        #expect(CoreDataError.errorDomain == NSCocoaErrorDomain)
        #expect(error.errorCode == NSPersistentStoreIncompatibleVersionHashError)
        #expect(error.errorUserInfo[NSLocalizedDescriptionKey] as? String == "the model does not match the store")
        let bridged = error as NSError
        #expect(bridged.domain == "NSCocoaErrorDomain" && bridged.code == 134_100)
    }

    @Test func aDenyDeleteRuleReportsTheAffectedObjects() throws {
        let parent = NSEntityDescription(name: "Parent"), child = NSEntityDescription(name: "Child")
        let children = NSRelationshipDescription(name: "children", destinationEntityName: "Child")
        children.deleteRule = .denyDeleteRule
        children.isOptional = true
        let owner = NSRelationshipDescription(name: "parent", destinationEntityName: "Parent")
        owner.maxCount = 1
        owner.isOptional = true
        children.inverseRelationshipName = "parent"
        owner.inverseRelationshipName = "children"
        parent.setProperties([children])
        child.setProperties([owner])
        let model = NSManagedObjectModel(entities: [parent, child])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("D.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let holder = NSEntityDescription.insertNewObject(forEntityName: "Parent", into: context)
            let kid = NSEntityDescription.insertNewObject(forEntityName: "Child", into: context)
            kid.setValue(holder, forKey: "parent")
            try context.save()
            context.delete(holder)
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch {
                let error = error as NSError
                #expect(error.code == NSValidationRelationshipDeniedDeleteError)
                #expect((error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject) === holder)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "children")
            }
        }
    }
}
