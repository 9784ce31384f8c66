import CoreDataModel
import CoreDataSQLiteFormat
import SQLiteDatabase

/// How one slot of a concrete entity is read from a selected row.
///
/// A struct with unretained references rather than an enum with class payloads: a fetch walks these for every row,
/// and copying an enum case out of the plan retained and released its payload each time. The plan that holds the
/// decoders keeps the descriptions alive (`SelectPlan.describedObjects`; `MemorySafety.swift`, invariant 4).
struct SlotDecoder {
    enum Kind: UInt8 {
        /// An attribute's value in `column`.
        case attribute
        /// A to-one relationship's key in `column`, its destination's entity number in `entityNumberColumn` if any.
        case toOne
        /// A property without a column (a to-many, or a property the store does not hold): read as null.
        case unmapped
    }

    let kind: Kind
    let column: Int
    /// For `.toOne`: the column holding the destination's `Z_ENT`, or -1 when the destination has no subentities.
    let entityNumberColumn: Int
    /// For `.attribute`: the attribute's type, read once when the plan is made.
    let attributeType: NSAttributeType
    /// For `.attribute`: whether the attribute allows external storage (its column holds a marked reference).
    let allowsExternalStorage: Bool
    /// For `.toOne`: the declared destination entity, unretained (the plan keeps it alive).
    private let destinationReference: UnretainedReference<NSEntityDescription>?

    /// For `.toOne`: the declared destination entity.
    var destination: NSEntityDescription { destinationReference!.object }

    static func attribute(column: Int, _ attribute: NSAttributeDescription) -> SlotDecoder {
        SlotDecoder(kind: .attribute, column: column, entityNumberColumn: -1, attributeType: attribute.attributeType,
                    allowsExternalStorage: attribute.allowsExternalBinaryDataStorage, destinationReference: nil)
    }

    static func toOne(keyColumn: Int, entityNumberColumn: Int?, destination: NSEntityDescription) -> SlotDecoder {
        SlotDecoder(kind: .toOne, column: keyColumn, entityNumberColumn: entityNumberColumn ?? -1, attributeType: .undefinedAttributeType,
                    allowsExternalStorage: false, destinationReference: UnretainedReference(destination))
    }

    static let unmapped = SlotDecoder(kind: .unmapped, column: -1, entityNumberColumn: -1, attributeType: .undefinedAttributeType,
                                      allowsExternalStorage: false, destinationReference: nil)
}

/// Turns the rows of one statement, selected with a store's `SelectPlan`, into object IDs and snapshots.
struct RowDecoder {
    let plan: NSSQLiteStore.SelectPlan
    let entities: EntityNumberTable<NSEntityDescription>
    /// The store's identifier, interned once per statement (see `InternedStoreIdentifier`).
    let store: InternedStoreIdentifier
    /// Whether rows carry values (`includesPropertyValues`), or only `Z_PK, Z_ENT, Z_OPT`.
    let withValues: Bool
    /// For error messages.
    let storePath: String

    /// Decodes the current row into an object ID and, when the plan selects values, a snapshot.
    func decode(_ row: borrowing Row) throws -> FetchedRow {
        let primaryKey = row.int64(at: 0)
        let number = plan.soleEntityNumber ?? Int(row.int64(at: 1))
        guard let concrete = entities[number] else {
            throw CoreDataError(.persistentStoreOperation,
                                "\(storePath): row \(primaryKey) of \(plan.table.name) has Z_ENT \(number), which the model does not know")
        }
        let id = NSManagedObjectID(entity: concrete, store: store, primaryKey: primaryKey)
        guard withValues, let decoders = plan.decoders[number] else { return FetchedRow(objectID: id, snapshot: nil) }
        // `reserveCapacity` then `append`: this specialises in this module, while `Array(repeating:count:)` and
        // `Array(unsafeUninitializedCapacity:)` call the standard library's unspecialised allocation, which looks
        // the array's storage class up by its generic metadata on every row.
        var values: [StoredValue] = []
        values.reserveCapacity(decoders.count)
        for decoder in decoders { values.append(value(row, decoder)) }
        return FetchedRow(objectID: id, snapshot: Snapshot(values: values, version: row.int64(at: 2)))
    }

    @inline(__always)
    private func value(_ row: borrowing Row, _ decoder: SlotDecoder) -> StoredValue {
        switch decoder.kind {
        case .attribute:
            return SQLiteColumnDecoding.decode(row, at: decoder.column, type: decoder.attributeType,
                                              allowsExternalStorage: decoder.allowsExternalStorage)
        case .toOne:
            if row.isNull(at: decoder.column) { return .null }
            var target = decoder.destination
            if decoder.entityNumberColumn >= 0, !row.isNull(at: decoder.entityNumberColumn),
               let concreteDestination = entities[Int(row.int64(at: decoder.entityNumberColumn))] {
                target = concreteDestination
            }
            return .toOne(NSManagedObjectID(entity: target, store: store, primaryKey: row.int64(at: decoder.column)))
        case .unmapped:
            return .null
        }
    }
}
