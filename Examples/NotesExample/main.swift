// A small Core Data program written for Apple's platforms. On Linux it differs only where docs/PORTING.md says:
// the import and the property declarations' attribute (marked "Linux:").
import Foundation
import OpenCoreData  // Linux: `import CoreData` on Apple's platforms

final class Folder: NSManagedObject {
    @Managed var name: String?  // Linux: `@NSManaged var name: String?`
}

final class Note: NSManagedObject {
    @Managed var title: String?  // Linux: `@NSManaged var title: String?`
    @Managed var created: Date?
    @Managed var words: Int16
    @Managed var folder: Folder?

    override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "created")
    }

    override func willSave() {
        super.willSave()
        // Keep the word count in step with the title, as apps derive values before saving.
        let count = Int16((title ?? "").split(separator: " ").count)
        if !isDeleted && words != count { words = count }
    }
}


/// The stack, as apps subclass the container to choose where the store goes.
final class NotesContainer: NSPersistentContainer, @unchecked Sendable {
    nonisolated(unsafe) static var directory = FileManager.default.temporaryDirectory
    override class func defaultDirectoryURL() -> URL { directory }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-example-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
NotesContainer.directory = directory

let container = NotesContainer(name: "Notes")
container.loadPersistentStores { description, error in
    if let error { fatalError("could not load \(description): \(error)") }
}

// A background import, on a private-queue context.
let imported = try await container.performBackgroundTask { context in
    let inbox = Folder(context: context)
    inbox.name = "Inbox"
    for title in ["Buy milk", "Call the plumber today", "Read the Core Data guide"] {
        let note = Note(context: context)
        note.title = title
        note.folder = inbox
    }
    try context.save()
    return try context.count(for: Note.fetchRequest())
}
print("imported \(imported) notes")

let viewContext = container.viewContext
let request: NSFetchRequest<Note> = Note.fetchRequest()
request.sortDescriptors = [NSSortDescriptor(keyPath: \Note.title, ascending: true)]
for note in try viewContext.fetch(request) {
    print("\(note.title ?? "") (\(note.words) words, in \(note.folder?.name ?? "no folder"))")
}

// An edit in a child context, saved into the view context and then to the store.
let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
editor.parent = viewContext
let firstID = try viewContext.fetch(request)[0].objectID
try editor.performAndWait {
    let note = editor.object(with: firstID) as! Note
    note.title = "Buy oat milk"
    try editor.save()
}
try viewContext.save()
print("edited: \(try viewContext.fetch(request).map { $0.title ?? "" }.joined(separator: ", "))")

// Undo.
viewContext.undoManager = UndoManager()
let note = viewContext.object(with: firstID) as! Note
note.title = "Buy bread"
viewContext.processPendingChanges()
viewContext.undo()
print("after undo: \(note.title ?? "")")

// Validation errors, read through NSError.
let untitled = Note(context: viewContext)
untitled.title = ""
do {
    try viewContext.save()
} catch {
    let error = error as NSError
    print("save refused: domain \(error.domain), code \(error.code), key \(error.userInfo[NSValidationKeyErrorKey] ?? "?")")
    viewContext.rollback()
}
print("notes in the store: \(try viewContext.count(for: Note.fetchRequest()))")
try? FileManager.default.removeItem(at: directory)
