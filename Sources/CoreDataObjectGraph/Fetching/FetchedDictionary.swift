import Foundation

/// One row of a dictionary fetch (`resultType = .dictionaryResultType`): the requested properties and
/// aggregates by name, as Apple's dictionary results are, read like a `[String: Any]`.
///
/// Every row of a fetch shares one key table, resolved once per fetch; a row holds only its values, typed, in one
/// allocation. Looking a key up compares it with the few fetched keys instead of hashing it, and
/// ``subscript(_:as:)`` returns a value in its own type without a cast through `Any`:
///
/// ```swift
/// let request = NSFetchRequest<FetchedDictionary>(entityName: "Word")
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["text", "length"]
/// for row in try context.fetch(request) {
///     let text = row["text", as: String.self]      // String?
///     let length = row["length", as: Int.self]     // Int?, converted from the stored Int64
///     let any = row["text"]                        // Any?, as from a [String: Any]
/// }
/// ```
///
/// As in Core Data, a key whose value is NULL is left out of its row: ``count`` and ``keys`` count the keys the
/// row has. Values have the types `[String: Any]` results have: `Int64` for integers, `Double`, `String`,
/// `Date`, `Bool`, `Data`, `UUID`, `URL`, `Decimal`, and `NSManagedObjectID` for to-one relationships.
/// `NSFetchRequest<[String: Any]>` returns the same rows converted (see `Dictionary.init(_:)`).
public struct FetchedDictionary: NSFetchRequestResult {
    /// The keys, shared by every row of the fetch.
    @usableFromInline let keyTable: FetchedKeyTable
    /// One value per key, in the key table's order.
    @usableFromInline let storage: FetchedRowStorage

    init(keyTable: FetchedKeyTable, storage: FetchedRowStorage) {
        precondition(storage.count == keyTable.names.count, "a row has one value per key of its key table")
        self.keyTable = keyTable
        self.storage = storage
    }

    /// The row's values, one per key of the key table (absent ones included), in its order.
    var storedValues: UnsafeMutableBufferPointer<FetchedValue> {
        storage.withUnsafeMutablePointerToElements { UnsafeMutableBufferPointer(start: $0, count: storage.count) }
    }

    /// The value for `key`, as `[String: Any]` results give it; nil when the row has no value for `key`.
    @inlinable
    public subscript(key: String) -> Any? {
        guard let position = keyTable.position(of: key) else { return nil }
        return storage.anyValue(at: position)
    }

    /// The value for `key` as a `Value`, or nil when the row has none or it is of another type. Reading a value in
    /// its own type costs no cast through `Any`; integers also read as any integer type they fit in exactly.
    @inlinable
    public subscript<Value>(key: String, as type: Value.Type) -> Value? {
        guard let position = keyTable.position(of: key) else { return nil }
        return storage.value(at: position, as: type)
    }

    /// The number of keys the row has values for.
    public var count: Int {
        withExtendedLifetime(storage) { storedValues.reduce(0) { $1.isAbsent ? $0 : $0 + 1 } }
    }

    public var isEmpty: Bool {
        withExtendedLifetime(storage) { storedValues.allSatisfy(\.isAbsent) }
    }

    /// The keys the row has values for, in the order they were fetched.
    public var keys: [String] {
        withExtendedLifetime(storage) { zip(keyTable.names, storedValues).compactMap { $1.isAbsent ? nil : $0 } }
    }

    /// The row's values, in the order of ``keys``.
    public var values: [Any] {
        withExtendedLifetime(storage) { storedValues.compactMap(\.anyValue) }
    }
}
