import CoreDataModel
import Foundation
import PropertyListCoding

/// Core Data's binary store file (`NSBinaryStoreType`): a 64-byte header, then two `NSKeyedArchiver` archives, the
/// map of every object (`$top` key `mapData`: primary key → `NSDictionaryMapNode`) and the metadata (`$top` key
/// `metadata`), as described in the store format reference §14b.
public enum BinaryStoreFormat {
    /// `NSStoreType` of binary stores.
    public static let storeType = "Binary"

    /// Reads the file's bytes against `model`. `file` names the file in errors.
    public static func decode(_ data: Data, model: NSManagedObjectModel, file: String) throws(StoreFileError) -> StoreFileContents {
        try decode(data, model: model, file: file, readsMapInPlace: true)
    }

    /// `decode(_:model:file:)`; with `readsMapInPlace` false, the map is read through the archive's value tree only
    /// (tests check that both readings agree).
    static func decode(_ data: Data, model: NSManagedObjectModel, file: String,
                       readsMapInPlace: Bool) throws(StoreFileError) -> StoreFileContents {
        let bytes = [UInt8](data)
        let header = try BinaryStoreHeader(reading: bytes, file: file)
        let metadata = try readMetadata(bytes, header: header, file: file)
        let objects = try BinaryStoreMapReader(schema: StoreFileSchema(model: model), file: file, readsInPlace: readsMapInPlace)
            .objects(in: bytes, range: header.mapRange)
        return StoreFileContents(metadata: metadata, referenceHighWaterMark: max(header.primaryKeyMark, objects.last?.reference ?? 0),
                                 objects: objects)
    }

    /// The metadata alone, read without a model and without reading the objects.
    public static func metadata(of data: Data, file: String) throws(StoreFileError) -> [String: PropertyListValue] {
        let bytes = [UInt8](data)
        return try readMetadata(bytes, header: BinaryStoreHeader(reading: bytes, file: file), file: file)
    }

    /// Writes `contents`: the map at byte 64, the metadata after it (with `NSStoreType` = `Binary`), objects in key
    /// order. Throws when the contents do not fit `model` (the same checks as reading).
    public static func encode(_ contents: StoreFileContents, model: NSManagedObjectModel) throws(StoreFileError) -> Data {
        let schema = StoreFileSchema(model: model)
        let objects = contents.objects.sorted { $0.reference < $1.reference }
        let file = "binary store being written"
        try StoreFileGraphCheck(schema: schema, file: file, spell: { "\($0)" },
                                locate: { index, _ in .object(objects[index].reference) }).check(objects)
        let map = try BinaryStoreMapWriter(schema: schema, file: file).archive(objects)
        var metadata = contents.metadata
        metadata[StoreMetadataKey.storeType] = .string(storeType)
        let metadataArchive: Data
        do {
            var builder = KeyedArchiveBuilder()
            builder.setTopObject(try builder.add(.dictionary(metadata)), forKey: "metadata")
            metadataArchive = try builder.binaryData()
        } catch {
            throw StoreFileError(file: file, location: .file, reason: "the metadata cannot be archived: \(error)")
        }
        let mapStart = BinaryStoreHeader.size
        let header = BinaryStoreHeader(
            metadataRange: (mapStart + map.count)..<(mapStart + map.count + metadataArchive.count),
            mapRange: mapStart..<(mapStart + map.count),
            primaryKeyMark: max(contents.referenceHighWaterMark, objects.last?.reference ?? 0, 0))
        var output = Data(header.bytes)
        output.append(map)
        output.append(metadataArchive)
        return output
    }

    private static func readMetadata(_ bytes: [UInt8], header: BinaryStoreHeader,
                                     file: String) throws(StoreFileError) -> [String: PropertyListValue] {
        let value: PropertyListValue
        do {
            let archive = try KeyedArchive(bytes: Array(bytes[header.metadataRange]))
            value = try archive.plainTopValue(forKey: "metadata")
        } catch {
            throw archiveError(error, range: header.metadataRange, name: "metadata", file: file)
        }
        guard case .dictionary(var metadata) = value else {
            throw StoreFileError(file: file, location: .byteOffset(header.metadataRange.lowerBound),
                                 reason: "the metadata archive holds a \(value.typeName), not a dictionary")
        }
        if metadata[StoreMetadataKey.storeType] == nil { metadata[StoreMetadataKey.storeType] = .string(storeType) }
        return metadata
    }

    /// A property-list error inside an archive, placed at its byte in the file.
    static func archiveError(_ error: any Error, range: Range<Int>, name: String, file: String) -> StoreFileError {
        let plistError = error as? PropertyListError
        return StoreFileError(file: file, location: .byteOffset(range.lowerBound + (plistError?.offset ?? 0)),
                              reason: "the \(name) archive: \(plistError?.reason ?? "\(error)")")
    }
}
