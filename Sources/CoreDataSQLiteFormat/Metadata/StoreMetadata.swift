import Foundation
import PropertyListCoding

/// A store's metadata: the `Z_METADATA` row's UUID and its plist of keys (store format reference §2.2).
public struct StoreMetadata: Sendable, Equatable {
    /// `Z_METADATA.Z_UUID`, merged into the metadata as `NSStoreUUID`; the host part of object-ID URIs.
    public var uuid: String
    /// Every key of the `Z_PLIST` dictionary, Apple's and the app's own.
    public var dictionary: [String: PropertyListValue]

    public init(uuid: String, dictionary: [String: PropertyListValue]) {
        self.uuid = uuid
        self.dictionary = dictionary
    }

    /// Decodes the `Z_PLIST` blob of a store; throws naming the store when it is not a property list dictionary.
    public init(uuid: String, plist: [UInt8], file: String) throws(StoreFormatError) {
        let value: PropertyListValue
        do {
            value = try PropertyList.read(plist)
        } catch {
            throw StoreFormatError(file: file, reason: "its Z_METADATA plist is unreadable (\(error))")
        }
        guard let dictionary = value.dictionaryValue else {
            throw StoreFormatError(file: file, reason: "its Z_METADATA plist is a \(value.typeName), not a dictionary")
        }
        self.init(uuid: uuid, dictionary: dictionary)
    }

    public var storeType: String? { dictionary[Key.storeType]?.stringValue }
    public var frameworkVersion: Int? { dictionary[Key.frameworkVersion]?.intValue }
    public var versionIdentifiers: [String] {
        dictionary[Key.versionIdentifiers]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
    /// `NSStoreModelVersionHashes`: entity name → 32-byte hash.
    public var versionHashes: [String: Data] {
        (dictionary[Key.versionHashes]?.dictionaryValue ?? [:]).compactMapValues { $0.dataValue }
    }
    public var versionHashesDigest: String? { dictionary[Key.versionHashesDigest]?.stringValue }
    public var versionChecksum: String? { dictionary[Key.versionChecksum]?.stringValue }

    /// The metadata keys Core Data writes.
    public enum Key {
        public static let storeType = "NSStoreType"
        public static let storeUUID = "NSStoreUUID"
        public static let frameworkVersion = "NSPersistenceFrameworkVersion"
        public static let versionHashes = "NSStoreModelVersionHashes"
        public static let versionHashesVersion = "NSStoreModelVersionHashesVersion"
        public static let versionIdentifiers = "NSStoreModelVersionIdentifiers"
        public static let versionHashesDigest = "NSStoreModelVersionHashesDigest"
        public static let versionChecksum = "NSStoreModelVersionChecksumKey"
        public static let autoVacuumLevel = "_NSAutoVacuumLevel"
    }
}

/// One row of `Z_PRIMARYKEY`: an entity's number, name, parent number and highest primary key.
public struct PrimaryKeyEntry: Sendable, Hashable {
    public var entityNumber: Int
    public var name: String
    /// The parent entity's number, 0 for a root entity.
    public var superEntityNumber: Int
    /// The highest `Z_PK` ever allocated; kept on root entities only.
    public var maximumPrimaryKey: Int64
}
