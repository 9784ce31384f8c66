import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Synchronization

/// A store's life beyond adding it: metadata with and without a coordinator, moving, destroying and replacing store
/// files, and migrating a store to another location (and, as more store types come, another type).
extension NSPersistentStoreCoordinator {
    // MARK: Metadata

    /// The metadata of the store of `storeType` at `url`, read without adding the store (Apple's class method): the
    /// store type, UUID, model version hashes and the app's own keys.
    public static func metadataForPersistentStore(ofType storeType: String, at url: URL,
                                                  options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try storeClass(for: storeType).metadataForPersistentStore(with: url)
    }

    /// Replaces the metadata of the store of `storeType` at `url` without adding the store, writing the file at once.
    /// `NSStoreType` is always set, and `NSStoreUUID` kept unless `metadata` names one.
    public static func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL,
                                   options: [AnyHashable: Any]? = nil) throws {
        try storeClass(for: storeType).setMetadata(metadata, forPersistentStoreAt: url)
    }

    /// The metadata of `store`: what its file holds, with any change made by `setMetadata(_:for:)` and not saved yet.
    public func metadata(for store: NSPersistentStore) -> [String: Any] {
        withLock { store.storeMetadata }
    }

    /// Replaces the metadata of `store`. As Apple's, `NSStoreType` is always added and `NSStoreUUID` kept unless
    /// `metadata` sets it, and the file changes only when a context is next saved (one without object changes too).
    public func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        withLock {
            store.storeMetadata = StoreMetadataValues.completed(metadata, storeType: store.type, current: store.storeMetadata)
            store.hasUnsavedMetadata = true
        }
    }

    // MARK: Location

    /// Moves `store` to the store file at `url`: the store closes its file and opens the one there, which must exist
    /// (Apple's contract for stores that are not atomic: no store is created). Returns false, leaving the store where
    /// it was, when `store` is not this coordinator's or the file at `url` cannot be opened as this store. An atomic
    /// store (``NSAtomicStore``) keeps its objects and writes its next save to `url` instead, as Apple's does. When the
    /// file opened has another store UUID, `NSPersistentStoreCoordinatorStoresDidChange` tells observers, with the
    /// store as both the old and the new store under `NSUUIDChangedPersistentStoresKey`.
    public func setURL(_ url: URL, for store: NSPersistentStore) -> Bool {
        let previousIdentifier = store.storeIdentifier
        let moved = withLock { () -> Bool in
            guard persistentStores.contains(where: { $0 === store }) else { return false }
            if store is NSAtomicStore {
                store.url = url
                return true
            }
            guard FileManager.default.fileExists(atPath: url.path) else { return false }
            let previous = store.url
            store.willRemove(from: self)
            store.url = url
            rowCache.removeAll()
            do {
                try store.loadStore()
                store.hasUnsavedMetadata = false
                return true
            } catch {
                store.url = previous
                try? store.loadStore()
                return false
            }
        }
        if moved, store.storeIdentifier != previousIdentifier {
            postStoresDidChange(NSUUIDChangedPersistentStoresKey, [store, store])
        }
        return moved
    }

    // MARK: Destroying and replacing

    /// Destroys the store of `storeType` at `url` with everything kept beside it: an SQLite database is truncated to an
    /// empty database left in place, as Apple's is, and its `-wal`, `-shm` and `-journal` files and external data
    /// folder are removed; another store's file is removed. A store of this coordinator at `url` is removed from it
    /// first. Nothing at `url` is not an error (for SQLite an empty database is left there, as Apple's leaves one); a
    /// file that is not a store of that type is refused before anything changes (the coordinator keeps its store).
    public func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        let storeClass = try Self.storeClass(for: storeType)
        try storeClass.checkDestroyable(at: url)
        if let store = persistentStore(for: url) { try remove(store) }
        // An SQLite database is truncated in place, as Apple's is; other stores' files are removed. (The library's
        // own clean-ups after a failed migration or copy still remove what they wrote.)
        if storeClass == NSSQLiteStore.self {
            try NSSQLiteStore.truncateFiles(at: url)
        } else {
            try storeClass.destroyStore(at: url, options: Self.stringKeyed(options))
        }
    }

    /// Replaces the store at `destinationURL` with a copy of the store at `sourceURL`, both of `storeType`; the
    /// destination need not exist ("replacing emptiness" makes a copy). A store of this coordinator at the destination
    /// is closed during the copy and opened again on the new file.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                       ofType storeType: String) throws {
        let storeClass = try Self.storeClass(for: storeType)
        guard sourceURL.standardizedFileURL != destinationURL.standardizedFileURL else {
            throw CoreDataError(.persistentStoreOperation, "\(sourceURL.path): a store cannot replace itself")
        }
        try withLock {
            let open = persistentStore(for: destinationURL)
            open?.willRemove(from: self)
            defer {
                if let open {
                    rowCache.removeAll()
                    try? open.loadStore()
                }
            }
            try storeClass.replaceStore(at: destinationURL, withStoreFrom: sourceURL, options: Self.stringKeyed(sourceOptions))
        }
    }

    // MARK: Migration

    /// Writes every object of `store` (attributes, relationships with their order) and its metadata to a new store of
    /// `storeType` at `url`, adds that store, removes `store` from the coordinator and returns the new store. The old
    /// store's file stays as it was. Nothing may exist at `url`; on failure the new file is removed and the
    /// coordinator keeps `store`. The new store gets its own UUID: its objects' primary keys are new, so an old
    /// object URI must not name one of them.
    @discardableResult
    public func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
                                       withType storeType: String) throws -> NSPersistentStore {
        let destinationClass = try Self.storeClass(for: storeType)
        guard persistentStores.contains(where: { $0 === store }) else {
            throw CoreDataError(.persistentStoreOperation, "\(store.url?.path ?? "the store"): not a store of this coordinator, so it cannot be migrated")
        }
        guard destinationClass.keepsNoFiles || !FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError(.persistentStoreOperation,
                                "\(url.path): a file already exists there; migration writes a new store and never overwrites one "
                                    + "(destroyPersistentStore(at:ofType:options:) removes it)")
        }
        // The copy is built on a coordinator of its own, so a failure leaves this one exactly as it was.
        let scratch = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        scratch.postsStoreNotifications = false
        let destination = try scratch.addPersistentStore(ofType: storeType, configurationName: store.configurationName, at: url, options: options)
        let migratedIDs: [(old: NSManagedObjectID, new: NSManagedObjectID)]
        do {
            migratedIDs = try StoreCopier(source: self, sourceStore: store, destination: scratch,
                                          progress: options?[OCDMigrationProgressOption] as? (Int, Int) -> Void).copyObjects()
            // The app's keys come along; what describes the file and its model is the new store's own.
            var metadata = destination.storeMetadata
            for (key, value) in store.storeMetadata where !StoreMetadataValues.storeDescribingKeys.contains(key) {
                metadata[key] = value
            }
            let complete = StoreMetadataValues.completed(metadata, storeType: storeType, current: destination.storeMetadata)
            if destination.keepsNoFile {
                // A store in memory is its objects: it moves to this coordinator as it is, rather than being opened again.
                destination.storeMetadata = complete
                scratch.detach(destination)
                attach(destination)
                postStoresDidChange(NSAddedPersistentStoresKey, [destination])
                postMigration(from: store, to: destination, migratedIDs)
                try remove(store)
                return destination
            }
            if let atomic = destination as? NSAtomicStore {
                // An atomic store writes its metadata with its objects: one more write of the whole file, by the store.
                try scratch.withLock {
                    atomic.metadata = complete
                    try atomic.save()
                }
                try scratch.remove(destination)
            } else {
                try scratch.remove(destination)
                try destinationClass.setMetadata(complete, forPersistentStoreAt: url)
            }
        } catch {
            try? scratch.remove(destination)
            try? destinationClass.destroyStore(at: url, options: [:])
            throw error
        }
        let added = try addPersistentStore(ofType: storeType, configurationName: store.configurationName, at: url, options: options)
        postMigration(from: store, to: added, migratedIDs)
        try remove(store)
        return added
    }

    /// Apple's store-changed notification of a migration: the old store, the new one, and each migrated object's old
    /// ID followed by its new one. Observers hear of the new store (added) first and of the old one (removed) after.
    private func postMigration(from old: NSPersistentStore, to new: NSPersistentStore,
                               _ migratedIDs: [(old: NSManagedObjectID, new: NSManagedObjectID)]) {
        guard postsStoreNotifications else { return }
        let pairs = migratedIDs.flatMap { [$0.old, $0.new] }
        postStoresDidChange(NSUUIDChangedPersistentStoresKey, [old, new, pairs])
    }
}

/// An OpenCoreData option of `migratePersistentStore(_:to:options:withType:)`: a `(Int, Int) -> Void` closure told
/// (work done, work in all) as objects are read and written, for a progress bar.
public let OCDMigrationProgressOption = "OCDMigrationProgressOption"

/// Apple's Swift store types (`NSPersistentStore.StoreType`), for the typed spellings of the coordinator's methods.
extension NSPersistentStore {
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        public static let xml = StoreType(rawValue: NSXMLStoreType)
    }
}

extension NSPersistentStoreCoordinator {
    /// Registers `storeClass` under `storeType`, as Apple's `registerStoreClass(_:forStoreType:)`; nil removes the
    /// registration. A class that is not an `NSPersistentStore` subclass is not registered, so adding a store of the
    /// type fails naming the known types.
    public static func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String) {
        guard let storeClass else {
            registry.withLock { $0[storeType] = nil }
            return
        }
        guard let persistentStoreClass = storeClass as? NSPersistentStore.Type else { return }
        registerStoreClass(persistentStoreClass, type: storeType)
    }

    /// `registerStoreClass(_:forStoreType:)` with a typed store type.
    public static func registerStoreClass(_ storeClass: AnyClass?, type storeType: NSPersistentStore.StoreType) {
        registerStoreClass(storeClass, forStoreType: storeType.rawValue)
    }

    /// `addPersistentStore(ofType:configurationName:at:options:)` with a typed store type.
    @discardableResult
    public func addPersistentStore(type: NSPersistentStore.StoreType, configuration: String? = nil, at url: URL,
                                   options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: url, options: options)
    }

    /// `metadataForPersistentStore(ofType:at:options:)` with a typed store type.
    public static func metadataForPersistentStore(type storeType: NSPersistentStore.StoreType, at url: URL,
                                                  options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: storeType.rawValue, at: url, options: options)
    }

    /// `setMetadata(_:forPersistentStoreOfType:at:options:)` with a typed store type.
    public static func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOf storeType: NSPersistentStore.StoreType,
                                   at url: URL, options: [AnyHashable: Any]? = nil) throws {
        try setMetadata(metadata, forPersistentStoreOfType: storeType.rawValue, at: url, options: options)
    }

    /// `destroyPersistentStore(at:ofType:options:)` with a typed store type.
    public func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, ofType: type.rawValue, options: options)
    }

    /// `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)` with a typed store type.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                       type: NSPersistentStore.StoreType) throws {
        try replacePersistentStore(at: destinationURL, destinationOptions: destinationOptions, withPersistentStoreFrom: sourceURL,
                                   sourceOptions: sourceOptions, ofType: type.rawValue)
    }

    /// `migratePersistentStore(_:to:options:withType:)` with a typed store type.
    @discardableResult
    public func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
                                       type: NSPersistentStore.StoreType) throws -> NSPersistentStore {
        try migratePersistentStore(store, to: url, options: options, withType: type.rawValue)
    }
}
