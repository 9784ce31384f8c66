import CoreDataModel
import Foundation
import SQLiteDatabase

/// An attribute type whose values a dictionary fetch reads straight from their usual SQLite storage class.
enum DirectlyReadType {
    case string, integer, double, date

    init?(_ type: NSAttributeType) {
        switch type {
        case .stringAttributeType: self = .string
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: self = .integer
        case .doubleAttributeType: self = .double
        case .dateAttributeType: self = .date
        default: return nil
        }
    }

    /// The storage class the type is read from directly; any other goes through the column's general decoder.
    var storageClass: SQLiteColumnType {
        switch self {
        case .string: return .text
        case .integer: return .integer
        case .double, .date: return .real
        }
    }
}

/// Builds the rows of one dictionary fetch: one key table for all of them, and per row one array of typed values
/// decoded straight from the statement's columns into the row's storage (its only allocation, for the common types).
struct DictionaryRowReader {
    let keyTable: FetchedKeyTable
    private let directTypes: [DirectlyReadType?]
    private let storageClasses: [SQLiteColumnType?]
    private let decoders: [(borrowing Row, Int) -> Any?]
    /// The key-table position of each column: columns of the same name share one position, where (as in a
    /// `[String: Any]` built column by column) the last value that is not NULL wins. Nil when every name is unique.
    private let positions: [Int]?

    init(columns: [NSSQLiteStore.SelectedColumn]) {
        var names: [String] = []
        var positionByName: [String: Int] = [:]
        let positions = columns.map { column in
            if let position = positionByName[column.name] { return position }
            positionByName[column.name] = names.count
            names.append(column.name)
            return names.count - 1
        }
        keyTable = FetchedKeyTable(names: names)
        directTypes = columns.map(\.directType)
        storageClasses = columns.map { $0.directType?.storageClass }
        decoders = columns.map(\.decode)
        self.positions = names.count == columns.count ? nil : positions
    }

    /// The statement's current row.
    func read(_ row: borrowing Row) -> FetchedDictionary {
        let count = decoders.count
        guard let positions else {
            let storage = FetchedRowStorage.make(count: count) { values in
                for index in 0..<count { (values + index).initialize(to: value(row, index)) }
            }
            return FetchedDictionary(keyTable: keyTable, storage: storage)
        }
        let keyCount = keyTable.names.count
        let storage = FetchedRowStorage.make(count: keyCount) { values in
            values.initialize(repeating: .absent, count: keyCount)
            for index in 0..<count {
                let value = value(row, index)
                if !value.isAbsent { values[positions[index]] = value }
            }
        }
        return FetchedDictionary(keyTable: keyTable, storage: storage)
    }

    /// Column `index`: read directly when it holds its type's usual storage class, else by its general decoder.
    @inline(__always)
    private func value(_ row: borrowing Row, _ index: Int) -> FetchedValue {
        // One column lookup for the storage class and the content (each `Row` read looks the column up again).
        let column = row.column(at: index)
        let storageClass = column.type
        if storageClass == .null { return .absent }
        if storageClass == storageClasses[index], let directType = directTypes[index] {
            switch directType {
            case .string: return .string(column.string ?? "")
            case .integer: return .integer(column.int64)
            case .double: return .double(column.double)
            case .date: return .date(Date(timeIntervalSinceReferenceDate: column.double))
            }
        }
        return decoders[index](row, index).map(FetchedValue.init) ?? .absent
    }
}
