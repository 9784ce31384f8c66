import CoreDataModel
import CoreDataObjectGraph
import Foundation

/// A container whose model, built in code as Apple's documentation shows, has one entity: `Note` with an optional
/// `title`. For tests about contexts and stores rather than models.
enum NotesContainer {
    /// The model: one entity, `Note`, with an optional string `title`.
    static func model() -> NSManagedObjectModel {
        let note = NSEntityDescription()
        note.name = "Note"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        title.isOptional = true
        note.properties = [title]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    /// A loaded container, on an in-memory store, or on an SQLite store at `storeURL` with `options` set on its
    /// description; `notes` notes ("Note 0", "Note 1", …) are saved first, through a context that then goes away.
    static func make(notes: Int = 0, storeURL: URL? = nil, options: [String: NSNumber] = [:]) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: model())
        let description: NSPersistentStoreDescription
        if let storeURL {
            description = NSPersistentStoreDescription(url: storeURL)
        } else {
            description = NSPersistentStoreDescription()
            description.type = NSInMemoryStoreType
        }
        for (key, value) in options { description.setOption(value, forKey: key) }
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
