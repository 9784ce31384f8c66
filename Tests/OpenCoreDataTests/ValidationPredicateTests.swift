import Foundation
import OpenCoreData
import Testing

/// Validation predicates as Apple's documentation uses them: `setValidationPredicates(_:withValidationWarnings:)` on a
/// property, each predicate evaluated with the property's value as `SELF`, and a value that fails one reported as an
/// `NSError` whose description is the warning and whose `NSValidationPredicateErrorKey` is the predicate.
struct ValidationPredicateTests {
    /// A `Tag` with a `name` that must be lowercase letters and at least three long, and a to-many `notes` that may
    /// hold at most two.
    private func makeModel() -> NSManagedObjectModel {
        let tag = NSEntityDescription()
        tag.name = "Tag"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        name.setValidationPredicates([NSPredicate(format: "SELF MATCHES '[a-z]+'"), NSPredicate(format: "length >= 3")],
                                     withValidationWarnings: ["A tag is lowercase letters", "A tag has three letters or more"])
        let note = NSEntityDescription()
        note.name = "Note"
        let notes = NSRelationshipDescription()
        notes.name = "notes"
        notes.destinationEntity = note
        notes.maxCount = 0
        notes.setValidationPredicates([NSPredicate(format: "@count <= 2")], withValidationWarnings: ["A tag marks two notes at most"])
        let tags = NSRelationshipDescription()
        tags.name = "tags"
        tags.destinationEntity = tag
        tags.maxCount = 0
        notes.inverseRelationship = tags
        tags.inverseRelationship = notes
        tag.properties = [name, notes]
        note.properties = [tags]
        let model = NSManagedObjectModel()
        model.entities = [tag, note]
        return model
    }

    private func makeContext(_ model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The one `NSError` a failed save throws, or nil when it did not fail.
    private func saveError(_ context: NSManagedObjectContext) -> NSError? {
        do {
            try context.save()
            return nil
        } catch {
            return error as NSError
        }
    }

    @Test func thePredicatesAndWarningsReadBackAsSet() throws {
        let name = try #require(makeModel().entitiesByName["Tag"]?.attributesByName["name"])
        #expect(name.validationPredicates.map(\.predicateFormat) == ["SELF MATCHES \"[a-z]+\"", "length >= 3"])
        let warnings = try #require(name.validationWarnings as? [String])
        #expect(warnings == ["A tag is lowercase letters", "A tag has three letters or more"])
        name.setValidationPredicates(nil, withValidationWarnings: nil)
        #expect(name.validationPredicates.isEmpty && name.validationWarnings.isEmpty)
    }

    @Test func aValueThatFailsAPredicateIsReportedWithItsWarning() throws {
        let model = makeModel()
        let context = try makeContext(model)
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("Swift", forKey: "name")
        let error = try #require(saveError(context), "an uppercase letter fails SELF MATCHES '[a-z]+'")
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.localizedDescription == "A tag is lowercase letters")
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
        #expect(error.userInfo[NSValidationValueErrorKey] as? String == "Swift")
        #expect((error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject) === tag)
        let predicate = try #require(error.userInfo[NSValidationPredicateErrorKey] as? NSPredicate)
        #expect(predicate == model.entitiesByName["Tag"]!.attributesByName["name"]!.validationPredicates[0])

        tag.setValue("swift", forKey: "name")
        try context.save()
    }

    @Test func aValueThatFailsTwoPredicatesGivesTwoErrors() throws {
        let context = try makeContext(makeModel())
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("A", forKey: "name")
        let error = try #require(saveError(context))
        #expect(error.code == NSValidationMultipleErrorsError)
        let details = try #require(error.userInfo[NSDetailedErrorsKey] as? [NSError])
        #expect(details.map(\.localizedDescription) == ["A tag is lowercase letters", "A tag has three letters or more"])
        #expect(details.map { ($0.userInfo[NSValidationPredicateErrorKey] as? NSPredicate)?.predicateFormat }
                == ["SELF MATCHES \"[a-z]+\"", "length >= 3"])
    }

    @Test func validateValueEvaluatesThePredicates() throws {
        let context = try makeContext(makeModel())
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        var short: Any? = "ab"
        #expect(throws: (any Error).self) { try tag.validateValue(&short, forKey: "name") }
        do {
            try tag.validateValue(&short, forKey: "name")
        } catch {
            #expect((error as NSError).localizedDescription == "A tag has three letters or more")
        }
        var good: Any? = "abc"
        try tag.validateValue(&good, forKey: "name")
        var none: Any? = nil
        try tag.validateValue(&none, forKey: "name")
    }

    @Test func aRelationshipPredicateSeesTheRelatedObjects() throws {
        let context = try makeContext(makeModel())
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("work", forKey: "name")
        let notes = (0..<3).map { _ in NSEntityDescription.insertNewObject(forEntityName: "Note", into: context) }
        tag.setValue(Set(notes.prefix(2)), forKey: "notes")
        try context.save()
        tag.setValue(Set(notes), forKey: "notes")
        let error = try #require(saveError(context), "three notes fail @count <= 2")
        #expect(error.localizedDescription == "A tag marks two notes at most")
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "notes")

        var three: Any? = Set(notes)
        #expect(throws: (any Error).self, "validateValue evaluates a relationship's predicates too") {
            try tag.validateValue(&three, forKey: "notes")
        }
        var two: Any? = Set(notes.prefix(2))
        try tag.validateValue(&two, forKey: "notes")
    }

    @Test func aPredicateWithoutAWarningReportsTheGenericValidationError() throws {
        let model = makeModel()
        model.entitiesByName["Tag"]!.attributesByName["name"]!
            .setValidationPredicates([NSPredicate(format: "SELF BEGINSWITH 'x'")], withValidationWarnings: nil)
        let context = try makeContext(model)
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("work", forKey: "name")
        let error = try #require(saveError(context))
        #expect(error.code == NSManagedObjectValidationError)
        #expect((error.userInfo[NSValidationPredicateErrorKey] as? NSPredicate)?.predicateFormat == "SELF BEGINSWITH \"x\"")
    }

    @Test func thePredicatesSurviveACompiledModel() throws {
        let data = try CompiledModelWriter.archive(makeModel())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("validation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Tags.mom")
        try data.write(to: url)
        let model = try #require(NSManagedObjectModel(contentsOf: url))
        let name = try #require(model.entitiesByName["Tag"]?.attributesByName["name"])
        #expect(name.validationPredicates.map(\.predicateFormat) == ["SELF MATCHES \"[a-z]+\"", "length >= 3"])
        #expect(name.validationWarnings as? [String] == ["A tag is lowercase letters", "A tag has three letters or more"])

        let context = try makeContext(model)
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("no", forKey: "name")
        #expect(saveError(context)?.localizedDescription == "A tag has three letters or more")
    }

    /// Xcode writes an attribute's minimum length and pattern as validation predicates with Core Data's error codes
    /// as their warnings; a model read from an `.xcdatamodel` gives them the same way.
    @Test func boundsOfAnXcodeModelAreValidationPredicates() throws {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="22A380">
                <entity name="Tag" representedClassName="Tag" syncable="YES">
                    <attribute name="name" attributeType="String" minValueString="3" regularExpressionString="[a-z]+"/>
                </entity>
            </model>
            """
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString)")
        let package = directory.appendingPathComponent("Tags.xcdatamodel")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(contents.utf8).write(to: package.appendingPathComponent("contents"))
        let model = try #require(NSManagedObjectModel(contentsOf: package))
        let name = try #require(model.entitiesByName["Tag"]?.attributesByName["name"])
        #expect(name.validationPredicates.map(\.predicateFormat) == ["length >= 3", "SELF MATCHES \"[a-z]+\""])
        #expect(name.validationWarnings.compactMap { ($0 as? NSNumber)?.intValue }
                == [NSValidationStringTooShortError, NSValidationStringPatternMatchingError])

        let context = try makeContext(model)
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("ab", forKey: "name")
        let error = try #require(saveError(context))
        #expect(error.code == NSValidationStringTooShortError, "one error for the bound, not a second for its predicate")
    }
}
