import CoreDataModel
import Foundation

/// The parts of an object ID's URI representation: `x-coredata://STORE-UUID/Entity/pN` for a saved object, and
/// `x-coredata:///Entity/tUUID` for an unsaved one (`NSManagedObjectID.uriRepresentation()`).
public struct ObjectURI: Equatable, Sendable {
    /// The store's UUID (the URI's host); empty for a temporary ID.
    public var storeIdentifier: String
    public var entityName: String
    /// The row's primary key, or nil for a temporary ID.
    public var primaryKey: Int64?

    /// Parses `uri`, throwing with the reason when it is not an object URI.
    public init(parsing uri: URL) throws {
        let text = uri.absoluteString
        func refuse(_ reason: String) -> CoreDataError {
            CoreDataError(.persistentStoreOperation,
                          "\"\(text)\" is not an object URI (\(reason)); object URIs read x-coredata://STORE-UUID/Entity/pN")
        }
        guard uri.scheme == "x-coredata" else { throw refuse("its scheme is not x-coredata") }
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count == 2, let entity = parts.first, let key = parts.last, !entity.isEmpty else {
            throw refuse("its path is not /Entity/pN")
        }
        storeIdentifier = uri.host ?? ""
        entityName = String(entity)
        if key.hasPrefix("t") {
            guard storeIdentifier.isEmpty else { throw refuse("a temporary ID names no store") }
            primaryKey = nil
            return
        }
        guard key.hasPrefix("p"), let number = Int64(key.dropFirst()), number > 0 else {
            throw refuse("\"\(key)\" is not p followed by a primary key above 0")
        }
        guard !storeIdentifier.isEmpty else { throw refuse("it names no store") }
        primaryKey = number
    }
}

extension NSPersistentStoreCoordinator {
    /// The object ID a URI representation names (`NSManagedObjectID.uriRepresentation()`), when its store is one of
    /// this coordinator's and its entity is in the model; nil otherwise, as Apple's. A temporary ID's URI gives nil:
    /// it names an object not saved to any store. `objectID(forURIRepresentation:)` says why a URI gives none.
    public func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        try? objectID(forURIRepresentation: url)
    }

    /// The object ID a URI representation names, or an error saying what does not match: not an object URI, a
    /// temporary ID, a store UUID that is none of this coordinator's stores, or an entity the model does not have.
    /// The row itself is not read: the ID may name an object that has since been deleted, as Apple's may.
    public func objectID(forURIRepresentation url: URL) throws -> NSManagedObjectID {
        let uri = try ObjectURI(parsing: url)
        guard let primaryKey = uri.primaryKey else {
            throw CoreDataError(.persistentStoreOperation,
                                "\(url.absoluteString) is a temporary object ID: it names an object not saved yet, which no store holds")
        }
        let store = withLock { persistentStores.first { $0.storeIdentifier == uri.storeIdentifier } }
        guard let store else {
            let known = withLock { persistentStores.map(\.storeIdentifier) }
            throw CoreDataError(.persistentStoreOperation,
                                "\(url.absoluteString) names store \(uri.storeIdentifier), which is not added to this coordinator "
                                    + "(its stores: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        let entity = try entity(named: uri.entityName)
        guard managedObjectModel.configurationEntities(store.configuration).contains(where: { $0 === entity }) else {
            throw CoreDataError(.persistentStoreOperation,
                                "\(url.absoluteString): entity \(entity.entityName) is not in the configuration of store \(store.storeIdentifier)")
        }
        return NSManagedObjectID(entity: entity, storeIdentifier: store.identifier, primaryKey: primaryKey)
    }
}
