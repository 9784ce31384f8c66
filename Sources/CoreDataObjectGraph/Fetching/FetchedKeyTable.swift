/// The keys every row of one dictionary fetch shares, in the order of `propertiesToFetch`: resolved to positions
/// once per fetch, so a row holds only its values (what Apple's `NSKnownKeysDictionary` rows share).
///
/// Immutable once built, so rows may share it across threads.
@usableFromInline
final class FetchedKeyTable: Sendable {
    /// The keys, unique, in column order.
    @usableFromInline let names: [String]
    /// Key → position: for key sets too large to scan, and as the template `[String: Any]` rows are built from
    /// (`mapValues` keeps its layout, so no key is hashed again).
    @usableFromInline let positionByName: [String: Int]

    /// Key sets up to this size are scanned: comparing a few short strings costs less than hashing the key.
    @usableFromInline static let scannedKeyLimit = 12

    init(names: [String]) {
        self.names = names
        self.positionByName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        precondition(positionByName.count == names.count, "a key table's keys are unique")
    }

    /// The position of `key`, or nil when the fetch has no such key.
    @inlinable
    func position(of key: String) -> Int? {
        if names.count <= Self.scannedKeyLimit {
            for position in names.indices where names[position] == key { return position }
            return nil
        }
        return positionByName[key]
    }
}
