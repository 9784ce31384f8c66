/// A set of property slot indices, as a bit set: the first 64 slots live inline, so marking a slot changed costs
/// a bit operation and no allocation (a `Set<Int>` allocated storage and hashed on every first change).
/// Iteration is in ascending slot order, which is the order saves bind columns in.
struct SlotSet: Sequence, Equatable {
    private var low: UInt64 = 0
    /// Words for slots 64 and up; empty (no allocation) for entities with at most 64 stored properties. Optional so
    /// that a new set (every new object has one) stores nil instead of retaining the empty array.
    private var highStorage: [UInt64]?
    private var high: [UInt64] {
        get { highStorage ?? [] }
        _modify {
            var words = highStorage ?? []
            highStorage = nil
            defer { highStorage = words.isEmpty ? nil : words }
            yield &words
        }
    }

    init() {}

    init<S: Sequence<Int>>(_ slots: S) {
        for slot in slots { insert(slot) }
    }

    var isEmpty: Bool { low == 0 && (highStorage?.allSatisfy { $0 == 0 } ?? true) }

    var count: Int { low.nonzeroBitCount + high.reduce(0) { $0 + $1.nonzeroBitCount } }

    func contains(_ slot: Int) -> Bool {
        precondition(slot >= 0, "slot indices are not negative")
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    mutating func insert(_ slot: Int) {
        precondition(slot >= 0, "slot indices are not negative")
        if slot < 64 {
            low |= 1 << UInt64(slot)
            return
        }
        let word = slot / 64 - 1
        if word >= high.count { high += Array(repeating: 0, count: word - high.count + 1) }
        high[word] |= 1 << UInt64(slot % 64)
    }

    mutating func remove(_ slot: Int) {
        if slot < 64 {
            low &= ~(1 << UInt64(slot))
        } else if slot / 64 - 1 < high.count {
            high[slot / 64 - 1] &= ~(1 << UInt64(slot % 64))
        }
    }

    mutating func removeAll() {
        low = 0
        high = []
    }

    /// The slots in ascending order (iteration already is; kept for call sites that read as "sorted").
    func sorted() -> [Int] { Array(self) }

    /// Compares the bits without building arrays (saves compare the changed slots of consecutive rows); words
    /// missing at the end of the longer set count as zero.
    static func == (lhs: SlotSet, rhs: SlotSet) -> Bool {
        guard lhs.low == rhs.low else { return false }
        for word in 0..<Swift.max(lhs.high.count, rhs.high.count) {
            let left = word < lhs.high.count ? lhs.high[word] : 0, right = word < rhs.high.count ? rhs.high[word] : 0
            if left != right { return false }
        }
        return true
    }

    func makeIterator() -> Iterator { Iterator(set: self) }

    struct Iterator: IteratorProtocol {
        private let set: SlotSet
        private var word = -1
        private var bits: UInt64

        init(set: SlotSet) {
            self.set = set
            self.bits = set.low
        }

        mutating func next() -> Int? {
            while bits == 0 {
                word += 1
                guard word < set.high.count else { return nil }
                bits = set.high[word]
            }
            let bit = bits.trailingZeroBitCount
            bits &= bits - 1
            return (word + 1) * 64 + bit
        }
    }
}
