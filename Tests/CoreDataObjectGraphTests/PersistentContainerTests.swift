import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import XCTest

/// A Notes model as Xcode writes it, for the container to find by name.
private let notesModelContents = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
        <entity name="Note" representedClassName="Note" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <attribute name="created" attributeType="Date" usesScalarValueType="NO"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
        </entity>
        <entity name="Folder" representedClassName="Folder" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
    </model>
    """

/// A subclass as apps write them, keeping its stores in a directory of its own. Swift 6 asks a subclass to restate
/// the container's `@unchecked Sendable` (a warning without it; docs/DEVIATIONS.md).
private final class NotesStack: NSPersistentContainer, @unchecked Sendable {
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opencoredata-stack-\(UUID().uuidString)")
    override class func defaultDirectoryURL() -> URL { directory }
}

/// `NSPersistentContainer` as Apple's documentation uses it: found by name, stores created on first load.
final class PersistentContainerTests: XCTestCase {
    private var savedDirectory = ""
    private var savedXDG: String?

    /// A fresh directory holding `Notes.xcdatamodeld`, made the current directory, with `XDG_DATA_HOME` inside it;
    /// both are restored after the test.
    private func enterFreshDirectory() throws -> URL {
        let directory = try TemporaryDirectory.make(prefix: "opencoredata-container")
        let version = directory.appendingPathComponent("Notes.xcdatamodeld/Notes.xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(notesModelContents.utf8).write(to: version.appendingPathComponent("contents"))
        savedDirectory = FileManager.default.currentDirectoryPath
        savedXDG = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(directory.path))
        setenv("XDG_DATA_HOME", directory.appendingPathComponent("data").path, 1)
        addTeardownBlock { [savedDirectory, savedXDG] in
            _ = FileManager.default.changeCurrentDirectoryPath(savedDirectory)
            if let savedXDG { setenv("XDG_DATA_HOME", savedXDG, 1) } else { unsetenv("XDG_DATA_HOME") }
        }
        return directory
    }

    /// The acceptance test's app: only Apple's API, unchanged from what runs on Apple's platforms but for the store
    /// type its description names.
    private func runNotesApp(storeType: String = NSSQLiteStoreType) throws -> [String] {
        let container = NSPersistentContainer(name: "Notes")
        container.persistentStoreDescriptions.first?.type = storeType
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = container.viewContext
        return try context.performAndWait {
            let folder = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: context)
            folder.setValue("Inbox", forKey: "name")
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("Buy milk", forKey: "title")
            note.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "created")
            note.setValue(folder, forKey: "folder")
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            return try context.fetch(request).map { note in
                "\(note.value(forKey: "title") ?? "") in \((note.value(forKey: "folder") as? NSManagedObject)?.value(forKey: "name") ?? "")"
            }
        }
    }

    func testAnAppWrittenAgainstApplesAPIRunsAgainstAFreshDirectory() throws {
        let directory = try enterFreshDirectory()
        XCTAssertEqual(try runNotesApp(), ["Buy milk in Inbox"])
        let store = directory.appendingPathComponent("data/\(ProcessInfo.processInfo.processName)/Notes.sqlite")
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.path), "the store is created in the XDG data directory")
        // A second run finds the first one's note.
        XCTAssertEqual(try runNotesApp(), ["Buy milk in Inbox", "Buy milk in Inbox"])
    }

    func testTheSameAppRunsAgainstTheInMemoryStore() throws {
        let directory = try enterFreshDirectory()
        XCTAssertEqual(try runNotesApp(storeType: NSInMemoryStoreType), ["Buy milk in Inbox"])
        // Nothing is written: a second run starts empty again, and no store file appears.
        XCTAssertEqual(try runNotesApp(storeType: NSInMemoryStoreType), ["Buy milk in Inbox"])
        let store = directory.appendingPathComponent("data/\(ProcessInfo.processInfo.processName)/Notes.sqlite")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path), "an in-memory store writes no file")
        // The same app, SQLite again, in the same directory.
        XCTAssertEqual(try runNotesApp(storeType: NSSQLiteStoreType), ["Buy milk in Inbox"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.path))
    }

    func testDefaultDirectoryFollowsXDGDataHomeThenTheHomeDirectory() throws {
        let directory = try enterFreshDirectory()
        let program = ProcessInfo.processInfo.processName
        XCTAssertEqual(NSPersistentContainer.defaultDirectoryURL().path, directory.appendingPathComponent("data/\(program)").path)
        setenv("XDG_DATA_HOME", "relative/ignored", 1)
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        XCTAssertEqual(NSPersistentContainer.defaultDirectoryURL().path,
                       URL(fileURLWithPath: home).appendingPathComponent(".local/share/\(program)").path,
                       "the XDG specification ignores a relative XDG_DATA_HOME")
        let container = NSPersistentContainer(name: "Notes")
        XCTAssertEqual(container.persistentStoreDescriptions.count, 1)
        XCTAssertEqual(container.persistentStoreDescriptions.first?.url?.lastPathComponent, "Notes.sqlite")
        XCTAssertEqual(container.persistentStoreDescriptions.first?.type, NSSQLiteStoreType)
    }

    func testASubclassOverridingDefaultDirectoryURLKeepsItsStoresThere() throws {
        _ = try enterFreshDirectory()
        let stack = NotesStack(name: "Notes")
        XCTAssertEqual(stack.persistentStoreDescriptions.first?.url, NotesStack.directory.appendingPathComponent("Notes.sqlite"))
        var loadError: (any Error)?
        stack.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        XCTAssertTrue(FileManager.default.fileExists(atPath: NotesStack.directory.appendingPathComponent("Notes.sqlite").path))
        XCTAssertEqual(stack.managedObjectModel.entitiesByName.keys.sorted(), ["Folder", "Note"])
        try stack.persistentStoreCoordinator.destroyPersistentStore(at: NotesStack.directory.appendingPathComponent("Notes.sqlite"),
                                                                    ofType: NSSQLiteStoreType)
    }

    func testAContainerGivenItsModelAndAStoreDescription() throws {
        let directory = try enterFreshDirectory()
        let model = try ModelLoader.loadModel(at: directory.appendingPathComponent("Notes.xcdatamodeld"))
        let container = NSPersistentContainer(name: "Anything", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: directory.appendingPathComponent("stores/custom.sqlite"))
        container.persistentStoreDescriptions = [description]
        var reported: [(NSPersistentStoreDescription, (any Error)?)] = []
        container.loadPersistentStores { reported.append(($0, $1)) }
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.0 === description)
        XCTAssertNil(reported.first?.1)
        XCTAssertNotNil(container.persistentStoreCoordinator.persistentStore(for: description.url!))
    }

    func testAModelThatCannotBeFoundIsReportedToTheLoadHandler() throws {
        _ = try enterFreshDirectory()
        let container = NSPersistentContainer(name: "NoSuchModel")
        var reported: (any Error)?
        container.loadPersistentStores { _, error in reported = error }
        let message = "\(try XCTUnwrap(reported))"
        XCTAssertTrue(message.contains("NoSuchModel.momd"), message)
        XCTAssertTrue(message.contains(FileManager.default.currentDirectoryPath), "the error lists where it looked: \(message)")
        XCTAssertTrue(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    func testAModelFileThatCannotBeReadIsReportedWithItsPath() throws {
        let directory = try enterFreshDirectory()
        try Data("not a model".utf8).write(to: directory.appendingPathComponent("Broken.mom"))
        let container = NSPersistentContainer(name: "Broken")
        var reported: (any Error)?
        container.loadPersistentStores { _, error in reported = error }
        let message = "\(try XCTUnwrap(reported))"
        XCTAssertTrue(message.contains("Broken.mom"), message)
    }
}
