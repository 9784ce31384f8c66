import Synchronization

/// Positions of a fixed list of names (an entity's stored properties, a dictionary fetch's keys), found without
/// hashing for short lists: `value(forKey:)`, `setValue(_:forKey:)` and dictionary-row lookups come here on every call.
///
/// Immutable once built (but for the lookup guess, an atomic), so it may be shared across threads.
@usableFromInline
class NameLookup: @unchecked Sendable {
    /// The names, in position order.
    @usableFromInline let names: [String]
    /// The same names in memory the lookup owns: a lookup reads them without retaining an array (a retain and a
    /// release cost more than comparing a short name).
    @usableFromInline let keys: UnsafeMutableBufferPointer<String>
    /// Name → position (the first position of a repeated name): for lists too long to scan.
    @usableFromInline let positionByName: [String: Int]

    /// Lists up to this length are scanned: comparing a few short strings costs less than hashing the name.
    @usableFromInline static let scannedKeyLimit = 12
    /// Where the next lookup starts: just after the name found last. Callers usually read name after name in list
    /// order, so the first comparison is usually the match (equal small strings compare inline; unequal ones go out
    /// of line). Only a guess: racing lookups on several threads just guess worse.
    @usableFromInline let nextGuess = Atomic<Int>(0)

    init(names: [String]) {
        self.names = names
        self.positionByName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        keys = .allocate(capacity: names.count)
        _ = keys.initialize(from: names)
    }

    deinit {
        keys.deinitialize()
        keys.deallocate()
    }

    /// The position of `name`, or nil when the list does not hold it. Always inlined: as a call, saving and restoring
    /// registers cost as much as the lookup, on every `value(forKey:)`.
    @inlinable @inline(__always)
    final func position(of name: String) -> Int? {
        let count = keys.count
        if count <= Self.scannedKeyLimit {
            let guess = nextGuess.load(ordering: .relaxed)
            if guess < count && keys[guess] == name {
                nextGuess.store(guess + 1 == count ? 0 : guess + 1, ordering: .relaxed)
                return guess
            }
            for position in 0..<count where keys[position] == name {
                nextGuess.store(position + 1 == count ? 0 : position + 1, ordering: .relaxed)
                return position
            }
            return nil
        }
        return positionByName[name]
    }
}
