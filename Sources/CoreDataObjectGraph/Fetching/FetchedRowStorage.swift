/// The values of one ``FetchedDictionary`` row: their count as the header and one ``FetchedValue`` per key of the
/// row's key table, tail-allocated, so a row is one allocation whose type needs no generic metadata lookup (an
/// `Array` of values looked its storage class up on every row, and destroyed its elements through value witnesses).
@usableFromInline
final class FetchedRowStorage: ManagedBuffer<Int, FetchedValue> {
    /// A row of `count` values, written by `initialize`, which must initialise every one of them.
    @inline(__always)
    static func make(count: Int, initialize: (UnsafeMutablePointer<FetchedValue>) -> Void) -> FetchedRowStorage {
        let buffer = create(minimumCapacity: count) { _ in count }
        let storage = unsafeDowncast(buffer, to: FetchedRowStorage.self)
        storage.withUnsafeMutablePointerToElements(initialize)
        return storage
    }

    deinit {
        withUnsafeMutablePointers { count, values in
            // Only strings and boxed values hold references; skipping the others saves a generic destroy per value.
            for index in 0..<count.pointee {
                switch values[index] {
                case .absent, .integer, .double, .date, .boolean: continue
                case .string, .other: (values + index).deinitialize(count: 1)
                }
            }
        }
    }

    /// The number of values: one per key of the key table.
    @inlinable
    var count: Int { header }

    /// The value at `position`, which the caller took from the key table.
    @inlinable
    subscript(position: Int) -> FetchedValue {
        withUnsafeMutablePointerToElements { $0[position] }
    }

    /// The value at `position` as `Wanted`, read in place (without copying the stored value out first).
    @inlinable
    func value<Wanted>(at position: Int, as type: Wanted.Type) -> Wanted? {
        withUnsafeMutablePointerToElements { $0[position].value(as: type) }
    }

    /// The value at `position` as `Any`, read in place.
    @inlinable
    func anyValue(at position: Int) -> Any? {
        withUnsafeMutablePointerToElements { $0[position].anyValue }
    }
}
