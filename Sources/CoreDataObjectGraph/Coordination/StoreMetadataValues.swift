import CoreDataSQLiteFormat
import Foundation
import PropertyListCoding

/// Converts a store's metadata between the `[String: Any]` dictionaries of Apple's API and the property-list values
/// the files hold. Metadata is a property list in every store type, so only property-list types are accepted: a
/// value of another type is refused with its key named, rather than dropped.
enum StoreMetadataValues {
    /// The property list of `metadata`, or an error naming the first key whose value no property list can hold.
    static func propertyList(_ metadata: [String: Any], file: String) throws -> [String: PropertyListValue] {
        var result: [String: PropertyListValue] = [:]
        for (key, value) in metadata {
            result[key] = try propertyListValue(value, keyPath: key, file: file)
        }
        return result
    }

    private static func propertyListValue(_ value: Any, keyPath: String, file: String) throws -> PropertyListValue {
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let integer as Int: return .integer(Int64(integer))
        case let integer as Int64: return .integer(integer)
        case let integer as Int32: return .integer(Int64(integer))
        case let integer as Int16: return .integer(Int64(integer))
        case let integer as UInt64: return .integer(exactly: integer)
        case let integer as UInt: return .integer(exactly: UInt64(integer))
        case let real as Double: return .real(real)
        case let real as Float: return .real(Double(real))
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        case let bytes as [UInt8]: return .data(Data(bytes))
        case is NSNull: return .null
        case let array as [Any]:
            return .array(try array.enumerated().map { try propertyListValue($1, keyPath: "\(keyPath)[\($0)]", file: file) })
        case let dictionary as [String: Any]:
            var converted: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                converted[key] = try propertyListValue(element, keyPath: "\(keyPath).\(key)", file: file)
            }
            return .dictionary(converted)
        default:
            throw CoreDataError(
                .persistentStoreOperation,
                "\(file): metadata key \"\(keyPath)\" holds a \(type(of: value)), which a store's metadata cannot hold "
                    + "(it takes strings, numbers, booleans, dates, data, arrays and dictionaries of them)")
        }
    }

    /// The keys that describe a store file and the model that wrote it, as opposed to the app's own keys.
    static let storeDescribingKeys: Set<String> = [
        StoreMetadata.Key.storeType, StoreMetadata.Key.storeUUID, StoreMetadata.Key.frameworkVersion,
        StoreMetadata.Key.versionHashes, StoreMetadata.Key.versionHashesVersion, StoreMetadata.Key.versionIdentifiers,
        StoreMetadata.Key.versionHashesDigest, StoreMetadata.Key.versionChecksum, StoreMetadata.Key.autoVacuumLevel,
    ]

    /// `metadata` as the store will hold it: `NSStoreType` set to `storeType`, and `NSStoreUUID` kept from `current`
    /// unless the caller set one (Apple's `setMetadata(_:for:)`).
    static func completed(_ metadata: [String: Any]?, storeType: String, current: [String: Any]) -> [String: Any] {
        var result = metadata ?? [:]
        result[StoreMetadata.Key.storeType] = storeType
        if result[StoreMetadata.Key.storeUUID] == nil {
            result[StoreMetadata.Key.storeUUID] = current[StoreMetadata.Key.storeUUID]
        }
        return result
    }
}

/// The metadata key naming a store's type (`"SQLite"`, …), as Apple's `NSStoreTypeKey`.
public let NSStoreTypeKey = StoreMetadata.Key.storeType
/// The metadata key holding a store's UUID, the host part of its object IDs' URIs, as Apple's `NSStoreUUIDKey`.
public let NSStoreUUIDKey = StoreMetadata.Key.storeUUID
/// The metadata key holding the model's entity version hashes, as Apple's `NSStoreModelVersionHashesKey`.
public let NSStoreModelVersionHashesKey = StoreMetadata.Key.versionHashes
/// The metadata key holding the model's version identifiers, as Apple's `NSStoreModelVersionIdentifiersKey`.
public let NSStoreModelVersionIdentifiersKey = StoreMetadata.Key.versionIdentifiers
/// The metadata key holding the model's version checksum, as Apple's `NSStoreModelVersionChecksumKey`.
public let NSStoreModelVersionChecksumKey = StoreMetadata.Key.versionChecksum
