import CoreDataModel
import Foundation
import SQLiteDatabase

/// Decodes one column of a row into an attribute value, as Core Data stores each type (store format reference
/// §4.4, §7): dates as seconds since 2001, booleans as 0/1, UUIDs as 16 bytes, decimals as numbers.
///
/// SQLite is dynamically typed, and stores edited by other tools can hold a value of another storage class in a
/// column; such values are converted where the conversion is exact, and kept as text otherwise.
enum SQLiteColumnDecoding {
    static func decode(_ row: borrowing Row, at index: Int, as attribute: NSAttributeDescription) -> StoredValue {
        decode(row, at: index, type: attribute.attributeType, allowsExternalStorage: attribute.allowsExternalBinaryDataStorage)
    }

    /// The same, with the attribute's type already read (a fetch plan reads it once, not once per row).
    static func decode(_ row: borrowing Row, at index: Int, as attribute: NSAttributeDescription, type: NSAttributeType) -> StoredValue {
        decode(row, at: index, type: type, allowsExternalStorage: attribute.allowsExternalBinaryDataStorage)
    }

    /// The same, from what a fetch plan read of the attribute once: its type, and whether it allows external storage
    /// (no description is touched per row, so none is retained and released per value).
    /// Always inlined: a fetch decodes every column through here, and as a call it paid for saving registers and for
    /// a storage-class read it could not inline.
    @inline(__always)
    static func decode(_ row: borrowing Row, at index: Int, type: NSAttributeType, allowsExternalStorage: Bool) -> StoredValue {
        // The usual storage classes are read through the column's value object: one lookup of the column, not one
        // for its storage class and another for its value.
        let column = row.column(at: index)
        let storage = column.type
        if storage == .null { return .null }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            switch storage {
            case .integer: return .attribute(.integer(column.int64))
            case .real:
                let real = column.double
                return real.rounded() == real && abs(real) < 9.2e18 ? .attribute(.integer(Int64(real))) : .attribute(.double(real))
            default: return text(column)
            }
        case .booleanAttributeType:
            switch storage {
            case .integer, .real: return .attribute(.boolean(column.int64 != 0))
            default: return text(column)
            }
        case .doubleAttributeType:
            return storage == .integer || storage == .real ? .attribute(.double(column.double)) : text(column)
        case .floatAttributeType:
            return storage == .integer || storage == .real ? .attribute(.float(Float(column.double))) : text(column)
        case .decimalAttributeType:
            // SQLite renders a REAL with 15 significant digits, which is what Core Data stored.
            guard let text = row.string(at: index), let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                return self.text(column)
            }
            return .attribute(.decimal(decimal))
        case .dateAttributeType:
            return storage == .integer || storage == .real
                ? .attribute(.date(Date(timeIntervalSinceReferenceDate: column.double))) : text(column)
        case .stringAttributeType:
            return storage == .blob ? blob(row, index) : text(column)
        case .URIAttributeType:
            guard let string = row.string(at: index) else { return .null }
            return URL(string: string).map { .attribute(.uri($0)) } ?? .attribute(.string(string))
        case .UUIDAttributeType:
            if let bytes = row.blob(at: index), bytes.count == 16 {
                return .attribute(.uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))))
            }
            if storage == .text, let string = row.string(at: index), let uuid = UUID(uuidString: string) { return .attribute(.uuid(uuid)) }
            return blob(row, index)
        case .binaryDataAttributeType, .transformableAttributeType:
            guard storage == .blob, let bytes = row.blob(at: index) else { return storage == .text ? text(column) : blob(row, index) }
            if allowsExternalStorage { return ExternalDataReference.decode(bytes) }
            return .attribute(.data(Data(bytes)))
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return storage == .blob ? blob(row, index) : text(column)
        }
    }

    private static func text(_ column: ColumnValue) -> StoredValue {
        column.string.map { .attribute(.string($0)) } ?? .null
    }

    private static func blob(_ row: borrowing Row, _ index: Int) -> StoredValue {
        row.blob(at: index).map { .attribute(.data(Data($0))) } ?? .null
    }
}

/// The in-row form of an attribute that allows external storage (store format reference §7): `0x01` then the
/// bytes when kept in the row, `0x02` then a NUL-terminated file name when kept in the store's support folder.
enum ExternalDataReference {
    static func decode(_ bytes: [UInt8]) -> StoredValue {
        guard let marker = bytes.first else { return .attribute(.data(Data())) }
        switch marker {
        case 0x01:
            return .attribute(.data(Data(bytes.dropFirst())))
        case 0x02:
            let name = bytes.dropFirst().prefix { $0 != 0 }
            return .externalData(reference: String(decoding: name, as: UTF8.self))
        default:
            // Not a marker Core Data writes: the attribute was stored before external storage was enabled.
            return .attribute(.data(Data(bytes)))
        }
    }
}
