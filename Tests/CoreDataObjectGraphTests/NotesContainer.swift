import CoreDataModel
import CoreDataObjectGraph
import Foundation

/// A container of one in-memory store whose model, built in code as Apple's documentation shows, has one entity: `Note`
/// with an optional `title`. For tests about contexts rather than models.
enum NotesContainer {
    /// A loaded container; `notes` notes ("Note 0", "Note 1", …) are saved first, through a context that then goes away.
    static func make(notes: Int = 0) throws -> NSPersistentContainer {
        let note = NSEntityDescription()
        note.name = "Note"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        title.isOptional = true
        note.properties = [title]
        let model = NSManagedObjectModel()
        model.entities = [note]
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: model)
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        guard notes > 0 else { return container }
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for index in 0..<notes {
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: writer).setValue("Note \(index)", forKey: "title")
            }
            try writer.save()
        }
        return container
    }
}
