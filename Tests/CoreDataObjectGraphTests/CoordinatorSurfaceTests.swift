import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Coordinator and error API the surface probe found missing, used as Apple's documentation uses it.
struct CoordinatorSurfaceTests {
    private static func model() -> NSManagedObjectModel {
        let note = NSEntityDescription(name: "Note")
        note.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        return NSManagedObjectModel(entities: [note])
    }

    /// Apple's `addPersistentStore(with:completionHandler:)` adds the described store and reports it to the handler.
    @Test func aStoreIsAddedFromItsDescription() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Notes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        coordinator.name = "Notes coordinator"
        #expect(coordinator.name == "Notes coordinator")
        let description = NSPersistentStoreDescription(url: url)
        var reported: [(NSPersistentStoreDescription, (any Error)?)] = []
        coordinator.addPersistentStore(with: description) { reported.append(($0, $1)) }
        #expect(reported.count == 1)
        #expect(reported.first?.0 === description && reported.first?.1 == nil)
        let store = try #require(coordinator.persistentStore(for: url))
        #expect(coordinator.url(for: store).standardizedFileURL == url.standardizedFileURL)
        #expect(FileManager.default.fileExists(atPath: url.path))

        let bad = NSPersistentStoreDescription(url: url)
        bad.type = "NoSuchType"
        coordinator.addPersistentStore(with: bad) { reported.append(($0, $1)) }
        #expect(reported.count == 2)
        #expect(reported.last?.1.map { ($0 as NSError).code } == NSPersistentStoreInvalidTypeError, "an error goes to the handler")
        #expect(coordinator.persistentStores.count == 1)
    }

    /// An in-memory store has no file; `url(for:)` answers `/dev/null`.
    @Test func aStoreWithoutAFileAnswersDevNull() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let store = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        #expect(coordinator.url(for: store).path == "/dev/null")
    }

    /// Apple's `CocoaError.Code` names for Core Data's codes match the errors a save throws.
    @Test func cocoaErrorCodesNameCoreDataErrors() throws {
        #expect(CocoaError.Code.validationMissingMandatoryProperty.rawValue == 1570)
        #expect(CocoaError.Code.managedObjectMerge.rawValue == NSManagedObjectMergeError)
        #expect(CocoaError.Code.persistentStoreIncompatibleVersionHash.rawValue == 134_100)
        #expect(CocoaError(.migrationCancelled).code.rawValue == NSMigrationCancelledError)
        #expect(NSValidationInvalidURIError == 1690)

        let entity = NSEntityDescription(name: "Note")
        let title = NSAttributeDescription(name: "title", type: .stringAttributeType)
        title.isOptional = false
        entity.setProperties([title])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [entity]))
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            _ = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            do {
                try context.save()
                Issue.record("a missing mandatory title saved")
            } catch {
                #expect((error as NSError).code == CocoaError.Code.validationMissingMandatoryProperty.rawValue)
            }
        }
    }
}
