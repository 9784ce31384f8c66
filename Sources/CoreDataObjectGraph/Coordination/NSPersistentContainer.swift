import CoreDataModel
import Foundation

/// Describes a store to add: its type, location and options.
public final class NSPersistentStoreDescription: @unchecked Sendable {
    public var type: String = NSSQLiteStoreType
    public var url: URL?
    public var configuration: String?
    public var options: [String: Any] = [:]
    public var isReadOnly: Bool {
        get { options[NSReadOnlyPersistentStoreOption] as? Bool ?? false }
        set { options[NSReadOnlyPersistentStoreOption] = newValue }
    }
    /// Seconds to wait for another process's lock.
    public var timeout: TimeInterval {
        get { options[NSPersistentStoreTimeoutOption] as? Double ?? 5 }
        set { options[NSPersistentStoreTimeoutOption] = newValue }
    }

    public init(url: URL) {
        self.url = url
    }
}

/// The common stack in one object: a model, a coordinator, the stores described in `persistentStoreDescriptions`,
/// and a main-queue `viewContext`.
public final class NSPersistentContainer: @unchecked Sendable {
    public let name: String
    public let managedObjectModel: NSManagedObjectModel
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    public var persistentStoreDescriptions: [NSPersistentStoreDescription]
    public private(set) lazy var viewContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        return context
    }()

    /// A container for `model`, whose store defaults to `<name>.sqlite` in the current directory.
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        self.persistentStoreDescriptions = [NSPersistentStoreDescription(
            url: URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("\(name).sqlite"))]
    }

    /// Adds every described store, reporting each one's outcome to `handler` as Apple's does.
    public func loadPersistentStores(completionHandler handler: (NSPersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            do {
                try persistentStoreCoordinator.addPersistentStore(
                    ofType: description.type, configurationName: description.configuration, at: description.url,
                    options: description.options)
                handler(description, nil)
            } catch {
                handler(description, error)
            }
        }
    }

    /// A new private-queue context on the coordinator.
    public func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }
}
