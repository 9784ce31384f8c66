import Synchronization

/// The keys every row of one dictionary fetch shares, in the order of `propertiesToFetch`: resolved to positions
/// once per fetch, so a row holds only its values (what Apple's `NSKnownKeysDictionary` rows share).
///
/// Immutable once built (but for the lookup guess, an atomic), so rows may share it across threads.
@usableFromInline
final class FetchedKeyTable: @unchecked Sendable {
    /// The keys, unique, in column order.
    @usableFromInline let names: [String]
    /// The same keys in memory the table owns: a lookup reads them without retaining an array (a retain and a
    /// release cost about 60 instructions, more than comparing a short key).
    @usableFromInline let keys: UnsafeMutableBufferPointer<String>
    /// Key → position: for key sets too large to scan, and as the template `[String: Any]` rows are built from
    /// (`mapValues` keeps its layout, so no key is hashed again).
    @usableFromInline let positionByName: [String: Int]

    /// Key sets up to this size are scanned: comparing a few short strings costs less than hashing the key.
    @usableFromInline static let scannedKeyLimit = 12
    /// Where the next lookup starts: just after the key found last. Rows are usually read key by key in the order
    /// the keys were fetched, so the first comparison is usually the match (an equal small string compares in a
    /// few instructions; an unequal one goes out of line). Only a guess: racing lookups on several threads just
    /// guess worse.
    @usableFromInline let nextGuess = Atomic<Int>(0)

    init(names: [String]) {
        self.names = names
        self.positionByName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        precondition(positionByName.count == names.count, "a key table's keys are unique")
        keys = .allocate(capacity: names.count)
        _ = keys.initialize(from: names)
    }

    deinit {
        keys.deinitialize()
        keys.deallocate()
    }

    /// The position of `key`, or nil when the fetch has no such key.
    @inlinable
    func position(of key: String) -> Int? {
        let count = keys.count
        if count <= Self.scannedKeyLimit {
            let guess = nextGuess.load(ordering: .relaxed)
            if guess < count && keys[guess] == key {
                nextGuess.store(guess + 1 == count ? 0 : guess + 1, ordering: .relaxed)
                return guess
            }
            for position in 0..<count where keys[position] == key {
                nextGuess.store(position + 1 == count ? 0 : position + 1, ordering: .relaxed)
                return position
            }
            return nil
        }
        return positionByName[key]
    }
}
