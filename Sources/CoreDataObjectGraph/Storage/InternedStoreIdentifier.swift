import Synchronization

/// A store identifier held once per process, so that object IDs can name their store without owning a string.
///
/// Every fetched row becomes an ID, and an ID that held the store's identifier as a `String` retained its 36-character
/// storage, an atomic operation on every row. An ID holds its store's
/// interned identifier unretained instead: interned identifiers are never deallocated (a process opens few stores,
/// and each costs one small object), and two IDs name the same store exactly when their interned identifiers are the
/// same object.
final class InternedStoreIdentifier: Sendable {
    let string: String

    private init(_ string: String) {
        self.string = string
    }

    private static let table = Mutex<[String: InternedStoreIdentifier]>([:])

    /// The one interned identifier for `string`, made on first use and kept for the life of the process.
    static func intern(_ string: String) -> InternedStoreIdentifier {
        table.withLock { table in
            if let interned = table[string] { return interned }
            let interned = InternedStoreIdentifier(string)
            table[string] = interned
            return interned
        }
    }
}
