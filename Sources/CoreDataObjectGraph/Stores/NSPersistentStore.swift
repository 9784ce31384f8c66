import CoreDataModel
import Foundation

/// A persistent store: one file (or memory) holding the objects of some entities of a coordinator's model.
///
/// Subclasses implement the store's side of fetching and saving; the coordinator routes each request to the store
/// that holds the entity. Stores are used under the coordinator's lock, so they may be `@unchecked Sendable`.
open class NSPersistentStore: @unchecked Sendable {
    /// The store type Core Data's metadata records (`"SQLite"`, `"XML"`, `"Binary"`, `"InMemory"`).
    open class var storeType: String { "" }

    /// Where the store lives; `NSPersistentStoreCoordinator.setURL(_:for:)` moves it.
    open var url: URL?
    /// The configuration the store was added with (nil: the model's default configuration, every entity).
    package let configuration: String?
    /// The name of the configuration the store was added with, `"PF_DEFAULT_CONFIGURATION_NAME"` for the default one,
    /// as Apple's.
    open var configurationName: String { configuration ?? Self.defaultConfigurationName }
    /// What Apple's stores report as the configuration name of a store added without one.
    public static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"
    /// The options the store was added with, as given.
    open var options: [AnyHashable: Any]? { givenOptions }
    private let givenOptions: [AnyHashable: Any]?
    /// The options keyed by their string names, as the stores read them.
    package let storeOptions: [String: Any]
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    /// The store's UUID (`NSStoreUUID`), the host part of its object IDs' URIs. A custom store may set it in ``load()``
    /// or ``loadMetadata()`` (an atomic store's `NSStoreUUID` metadata sets it too); it must not change once objects
    /// have IDs.
    open var identifier: String! {
        get { storeIdentifier }
        set { storeIdentifier = newValue ?? UUID().uuidString }
    }
    /// The identifier the library reads (never nil).
    package var storeIdentifier: String = UUID().uuidString
    /// The store's metadata (`NSStoreType`, `NSStoreUUID`, `NSStoreModelVersionHashes`, app keys, …).
    /// `NSPersistentStoreCoordinator.setMetadata(_:for:)` changes it; the next save writes it to the file. An atomic
    /// store's ``NSAtomicStore/load()`` sets it from its file (its `NSStoreUUID` becomes the store's ``identifier``).
    open var metadata: [String: Any]! {
        get { storeMetadata }
        // As Apple's: the file takes it at the next save through a context (one without object changes too). A
        // store's own `load()` setting it is no change: the coordinator clears the mark once the store is added.
        set {
            storeMetadata = newValue ?? [:]
            hasUnsavedMetadata = true
        }
    }
    /// The metadata the library reads (never nil).
    package var storeMetadata: [String: Any] = [:]
    /// Whether `metadata` holds changes the file does not have yet (written by the next save, as Apple's).
    var hasUnsavedMetadata = false

    /// The store's type: its class's ``storeType``, or the name it was registered under
    /// (`NSPersistentStoreCoordinator.registerStoreClass(_:type:)`) for a class that does not override either.
    open var type: String {
        let declared = Self.storeType
        return declared.isEmpty ? NSPersistentStoreCoordinator.registeredType(of: Self.self) ?? "" : declared
    }

    /// Why this store refuses every save although it was opened read-write, or nil. The SQLite store sets it for a
    /// store that records persistent history, which OpenCoreData does not write yet (as Apple's framework makes such a
    /// store read-only when history tracking is off). Saves throw with this reason; editors should check it first.
    public internal(set) var writeRefusal: String?

    /// Whether the store keeps its objects in memory only, so its URL names no file (``NSInMemoryStore``): the
    /// coordinator then neither refuses a second store at the same URL nor looks for a file there.
    var keepsNoFile: Bool { Self.keepsNoFiles }
    class var keepsNoFiles: Bool { false }

    /// The ID of the object of `entity` with `primaryKey` in this store: what a store outside the library hands back
    /// in its ``FetchedRow``s (primary keys are positive, and unique within an entity's inheritance tree).
    public final func newObjectID(for entity: NSEntityDescription, primaryKey: Int64) -> NSManagedObjectID {
        NSManagedObjectID(entity: entity, store: .intern(storeIdentifier), primaryKey: primaryKey)
    }

    /// Whether saves to this store are refused: the `NSReadOnlyPersistentStoreOption` it was added with, or set here
    /// (before the store is added, as Apple documents).
    open var isReadOnly: Bool {
        get { readOnlyOverride ?? (storeOptions[NSReadOnlyPersistentStoreOption] as? Bool) ?? false }
        set { readOnlyOverride = newValue }
    }
    private var readOnlyOverride: Bool?

    /// Makes a store, as Apple's designated initializer; the coordinator calls it when a store is added
    /// (`addPersistentStore(ofType:configurationName:at:options:)`). A custom store class overrides it to set up its
    /// own state, and reads its file in ``load()`` (atomic stores) or ``loadMetadata()``, not here.
    public init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?, at url: URL,
                options: [AnyHashable: Any]? = nil) {
        self.persistentStoreCoordinator = root
        self.configuration = name == Self.defaultConfigurationName ? nil : name
        self.url = url
        self.givenOptions = options
        var byName: [String: Any] = [:]
        for (key, value) in options ?? [:] { byName[key.base as? String ?? String(describing: key.base)] = value }
        self.storeOptions = byName
    }

    /// How the coordinator makes a store of a registered class: Apple's initializer (so a subclass's override of it
    /// runs), then the URL as given (nil for a store without a file).
    public required convenience init(coordinator: NSPersistentStoreCoordinator?, configurationName: String?, url: URL?,
                                     options: [AnyHashable: Any]?) {
        self.init(persistentStoreCoordinator: coordinator, configurationName: configurationName,
                  at: url ?? URL(fileURLWithPath: "/dev/null"), options: options)
        self.url = url
    }

    /// Reads the store's metadata (Apple's hook for stores that open their file in parts); the coordinator calls it
    /// before ``load()``. Does nothing by default.
    open func loadMetadata() throws {}

    /// Opens the store's file and reads its metadata; called once by the coordinator when the store is added.
    open func load() throws {}

    /// What the coordinator calls to open the store: ``load()``, and for atomic stores the checks after it.
    func loadStore() throws {
        try loadMetadata()
        try load()
    }

    /// Called after the coordinator added the store (Apple's hook; does nothing by default).
    open func didAdd(to coordinator: NSPersistentStoreCoordinator) {}

    /// Called before the coordinator removes the store, to release what it holds (the SQLite store closes its file).
    open func willRemove(from coordinator: NSPersistentStoreCoordinator?) {}

    /// The metadata of the store of this class at `url`, read without a coordinator. Store classes override it;
    /// the base class has no file format and throws.
    open class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        throw CoreDataError(.persistentStoreUnsupportedRequestType, "\(url.path): \(self) cannot read store metadata")
    }

    /// Replaces the metadata of the store of this class at `url` without a coordinator. Store classes override it.
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        throw CoreDataError(.persistentStoreUnsupportedRequestType, "\(url.path): \(self) cannot write store metadata")
    }

    /// The migration manager class for stores of this class, as Apple's: `NSMigrationManager`. The built-in
    /// stores' automatic migrations run their own store-specific paths without asking it (docs/DEVIATIONS.md).
    open class func migrationManagerClass() -> AnyClass {
        NSMigrationManager.self
    }

    /// Refuses, before anything changes, a file at `url` that is not a store of this class, so that
    /// `destroyPersistentStore(at:ofType:options:)` leaves the coordinator and the disk as they were. The base class
    /// accepts anything.
    class func checkDestroyable(at url: URL) throws {}

    /// Removes the store of this class at `url` and everything the store keeps beside it
    /// (`NSPersistentStoreCoordinator.destroyPersistentStore(at:ofType:options:)`). The base class removes the file.
    class func destroyStore(at url: URL, options: [String: Any]) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw CoreDataError(.persistentStoreOperation, "\(url.path): cannot be removed (\(error))", underlyingError: error)
        }
    }

    /// Replaces the store at `destination` with a copy of the one at `source`
    /// (`NSPersistentStoreCoordinator.replacePersistentStore(at:…)`). The base class copies the file.
    class func replaceStore(at destination: URL, withStoreFrom source: URL, options: [String: Any]) throws {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw CoreDataError(.persistentStoreOpen, "\(source.path): no such file; there is no store to copy")
        }
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
            try FileManager.default.copyItem(at: source, to: destination)
        } catch {
            throw CoreDataError(.persistentStoreOperation, "\(destination.path): cannot be replaced with \(source.path) (\(error))",
                                underlyingError: error)
        }
    }
}

/// Opens a store read-only: saves are refused and the file is never written.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// Store types by their registry names.
public let NSSQLiteStoreType = "SQLite"
/// Apple's XML store type (``NSXMLStore``): every object in one XML file, read at once and written atomically.
public let NSXMLStoreType = "XML"
/// Apple's binary store type (``NSBinaryStore``): every object in one binary file, read at once and written atomically.
public let NSBinaryStoreType = "Binary"
/// Apple's in-memory store type (``NSInMemoryStore``): objects live in memory only, as long as the store is added.
public let NSInMemoryStoreType = "InMemory"
