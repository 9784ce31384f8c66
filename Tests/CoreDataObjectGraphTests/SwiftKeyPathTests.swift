import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

final class KeyPathNote: NSManagedObject {
    @Managed var title: String?
    @Managed var words: Int16
    @Managed var folder: KeyPathFolder?
    /// The same relationship declared non-optional (reading it without a destination traps, as Apple's does).
    @Managed("folder") var requiredFolder: KeyPathFolder
    /// Computed, not a Core Data property: it has no key.
    var shouted: String { (title ?? "").uppercased() }
    var folderAndTitle: String { (folder?.name ?? "") + (title ?? "") }
    /// Computed through a chain of to-ones: its key is the chain's, as `value(forKeyPath: "folder.name")` reads.
    var folderName: String? { folder?.name }
}

final class KeyPathFolder: NSManagedObject {
    @Managed var name: String?
    @Managed var notes: Set<KeyPathNote>
}

/// Swift key paths where Apple's API takes them (`NSSortDescriptor(keyPath:ascending:)`, `NSExpression(forKeyPath:)`),
/// named through the `@Managed` declarations.
struct SwiftKeyPathTests {
    static func model() -> NSManagedObjectModel {
        let note = NSEntityDescription()
        note.name = "KeyPathNote"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        let words = NSAttributeDescription()
        words.name = "words"
        words.attributeType = .integer16AttributeType
        words.defaultValue = 0
        let folder = NSEntityDescription()
        folder.name = "KeyPathFolder"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        let notes = NSRelationshipDescription()
        notes.name = "notes"
        notes.destinationEntity = note
        notes.maxCount = 0
        let inFolder = NSRelationshipDescription()
        inFolder.name = "folder"
        inFolder.destinationEntity = folder
        inFolder.maxCount = 1
        notes.inverseRelationship = inFolder
        inFolder.inverseRelationship = notes
        note.properties = [title, words, inFolder]
        folder.properties = [name, notes]
        let model = NSManagedObjectModel()
        model.entities = [note, folder]
        return model
    }

    private func context() throws -> NSManagedObjectContext {
        NSManagedObject.register(KeyPathNote.self, forEntityName: "KeyPathNote")
        NSManagedObject.register(KeyPathFolder.self, forEntityName: "KeyPathFolder")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("K.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func aSortDescriptorWithAKeyPathSortsByThatProperty() throws {
        let context = try context()
        try context.performAndWait {
            for (title, words) in [("b", 3), ("c", 1), ("a", 2)] {
                let note = KeyPathNote(context: context)
                note.title = title
                note.words = Int16(words)
            }
            try context.save()
            let request = KeyPathNote.fetchRequest()
            request.sortDescriptors = [NSSortDescriptor(keyPath: \KeyPathNote.title, ascending: false)]
            #expect(try context.fetch(request).map(\.title) == ["c", "b", "a"])
            request.sortDescriptors = [NSSortDescriptor(keyPath: \KeyPathNote.words, ascending: true)]
            #expect(try context.fetch(request).map(\.words) == [1, 2, 3])
            #expect(request.sortDescriptors?.first?.key == "words")
        }
    }

    @Test func keyPathsNameManagedPropertiesOnly() throws {
        // The model must be in use (as for `entity()`): the context keeps its coordinator and model alive.
        let context = try context()
        withExtendedLifetime(context) {
            #expect(NSExpression(forKeyPath: \KeyPathNote.title).keyPath == "title")
            #expect(NSManagedObject.key(for: \KeyPathNote.folder) == "folder")
            #expect(NSManagedObject.key(for: \KeyPathFolder.notes) == "notes")
            #expect(NSManagedObject.key(for: \KeyPathNote.shouted) == nil, "a computed property has no key")
            #expect(NSManagedObject.key(for: \KeyPathNote.folder?.name) == "folder.name", "a chain of to-ones is named")
            #expect(NSExpression(forKeyPath: \KeyPathNote.requiredFolder.name).keyPath == "folder.name", "a non-optional to-one too")
            #expect(NSManagedObject.key(for: \KeyPathNote.folderAndTitle) == nil, "a computed property reading two properties has none")
            #expect(NSManagedObject.key(for: \KeyPathNote.folderName) == "folder.name", "one reading a chain has the chain's")
        }
    }
}
