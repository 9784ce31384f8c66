import CoreDataModel
import Foundation

/// The common stack in one object: a model, a coordinator, the stores described in `persistentStoreDescriptions`,
/// and a main-queue `viewContext`. Open for subclassing, as Apple's is (`class Stack: NSPersistentContainer`, often
/// to override `defaultDirectoryURL()`).
///
/// Its state is set up before use and then read from any thread, as Apple documents for its container, so it is
/// `@unchecked Sendable`; its contexts keep to their own queues.
open class NSPersistentContainer: @unchecked Sendable {
    public let name: String
    public let managedObjectModel: NSManagedObjectModel
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    /// The stores `loadPersistentStores` adds: by default one SQLite store, `NAME.sqlite` in `defaultDirectoryURL()`.
    public var persistentStoreDescriptions: [NSPersistentStoreDescription]
    /// Why `init(name:)` found no model: `loadPersistentStores` reports it for every store instead of adding any.
    var modelLookupError: (any Error)?

    public private(set) lazy var viewContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        return context
    }()

    /// A container for the model named `name`, found as `NAME.momd`, `NAME.mom`, `NAME.xcdatamodeld` or
    /// `NAME.xcdatamodel` next to the program, in its resource bundles (`Bundle.main`, SwiftPM's `*.resources`
    /// directories) or in the current directory. When none is found (or it cannot be read) the container has an
    /// empty model and `loadPersistentStores` reports why to its handler, where Apple's would log and fail later.
    public convenience init(name: String) {
        do {
            self.init(name: name, managedObjectModel: try ModelLocator.model(named: name))
        } catch {
            self.init(name: name, managedObjectModel: NSManagedObjectModel())
            modelLookupError = error
        }
    }

    /// A container for `model`, whose store is `NAME.sqlite` in `defaultDirectoryURL()`.
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        self.persistentStoreDescriptions = []
        // After every property is set, so that a subclass's override of `defaultDirectoryURL()` is the one asked.
        persistentStoreDescriptions = [NSPersistentStoreDescription(
            url: type(of: self).defaultDirectoryURL().appendingPathComponent(name).appendingPathExtension("sqlite"))]
    }

    /// Where stores go by default. On Linux it is the XDG data directory with the program's name:
    /// `$XDG_DATA_HOME/PROGRAM` when that variable holds an absolute path, else `~/.local/share/PROGRAM` (Apple's
    /// platforms use the app's Application Support folder). Subclasses override it to put stores elsewhere. The
    /// directory is created when the first store is added.
    open class func defaultDirectoryURL() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent(ProcessInfo.processInfo.processName, isDirectory: true)
    }

    /// Adds every described store, creating the ones that do not exist yet, and reports each one's outcome to
    /// `block` (in order, before returning), as Apple's does.
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            if let modelLookupError {
                block(description, modelLookupError)
                continue
            }
            do {
                try persistentStoreCoordinator.addPersistentStore(
                    ofType: description.type, configurationName: description.configuration, at: description.url,
                    options: description.options)
                block(description, nil)
            } catch {
                block(description, error)
            }
        }
    }

    /// A new private-queue context on the coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new private-queue context, on that context's queue.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }
}
