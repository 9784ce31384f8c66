/// The registry's entries for permanent IDs, filed by primary key in blocks of 16 consecutive keys of one
/// inheritance tree: a slot per key, holding the registered object's unretained address (0 when empty).
///
/// A fetch registers rows in key order (its default order is `Z_PK`), and the objects of one fetch are usually
/// released in that order too. Filed by a hash, each registration and each removal touched a random bucket of a table
/// far larger than the caches, one cache miss per object. Filed by block, consecutive keys share one block, found
/// once by the index and then remembered, and fill its slots in order.
///
/// A block is keyed by (tree, key ÷ 16); a slot answers for every ID with that tree and key, so the caller compares
/// the slot's object's ID with the one it looks for (IDs of two stores, or an ID of an entity that outlived its model,
/// can share a slot: the registry files those in its hash table instead). An empty block is freed for reuse. Every
/// method runs under the registry's lock.
struct RegistryBlocks: ~Copyable {
    static let keyBits = 4
    static let blockSize = 1 << keyBits

    /// A block's key and how many of its slots are filled; a free block links to the next free one.
    struct Header {
        var tree: UInt
        var high: Int64
        var live: Int32
        var nextFree: Int32
    }

    /// An index entry: the block for (tree, high), or empty when `tree` is 0.
    struct IndexEntry {
        var tree: UInt
        var high: Int64
        var block: Int32
    }

    private(set) var headers = UnsafeMutableBufferPointer<Header>(start: nil, count: 0)
    /// `headers.count` blocks of `blockSize` addresses.
    private(set) var slots = UnsafeMutableBufferPointer<UInt>(start: nil, count: 0)
    /// Blocks handed out so far; those below it are in use or on the free list.
    private(set) var usedBlocks = 0
    private(set) var firstFree: Int32 = -1
    /// (tree, high) → block, open addressing with linear probing; removal shifts entries back, so no tombstones.
    private(set) var index = UnsafeMutableBufferPointer<IndexEntry>(start: nil, count: 0)
    private(set) var indexCount = 0
    /// The block found last: consecutive keys need no index probe.
    private(set) var lastTree: UInt = 0
    private(set) var lastHigh: Int64 = 0
    private(set) var lastBlock: Int32 = -1
    /// Filled slots.
    private(set) var count = 0

    init() {}

    deinit {
        headers.deallocate()
        slots.deallocate()
        index.deallocate()
    }

    /// How many slots there are: a slot number below this may be read with `address(at:)`.
    var slotCapacity: Int { slots.count }

    /// The slot for `key` in `tree`, or nil when its block does not exist (no ID of that block is registered).
    @inline(__always)
    mutating func slot(tree: UInt, key: Int64) -> Int? {
        let high = key >> Self.keyBits
        guard let block = block(tree: tree, high: high) else { return nil }
        return Int(block) << Self.keyBits | Int(key & Int64(Self.blockSize - 1))
    }

    /// The slot for `key` in `tree`, creating its block when needed. A block left empty must be handed back with
    /// `releaseIfEmpty(slot:)`.
    @inline(__always)
    mutating func slotCreatingBlock(tree: UInt, key: Int64) -> Int {
        assert(tree != 0, "tree tokens are object addresses")
        let high = key >> Self.keyBits
        let block = block(tree: tree, high: high) ?? addBlock(tree: tree, high: high)
        return Int(block) << Self.keyBits | Int(key & Int64(Self.blockSize - 1))
    }

    @inline(__always)
    func address(at slot: Int) -> UInt {
        slots[slot]
    }

    /// Puts `address` in the empty `slot`.
    @inline(__always)
    mutating func fill(_ slot: Int, with address: UInt) {
        assert(slots[slot] == 0 && address != 0)
        slots[slot] = address
        headers[slot >> Self.keyBits].live += 1
        count += 1
    }

    /// Replaces the address in the filled `slot`.
    mutating func replace(_ slot: Int, with address: UInt) {
        assert(slots[slot] != 0 && address != 0)
        slots[slot] = address
    }

    /// Empties the filled `slot`, freeing its block when it was the block's last.
    mutating func remove(at slot: Int) {
        assert(slots[slot] != 0)
        slots[slot] = 0
        count -= 1
        let block = slot >> Self.keyBits
        headers[block].live -= 1
        if headers[block].live == 0 { freeBlock(Int32(block)) }
    }

    /// Frees the block of `slot` if none of its slots is filled (a block created for a registration that went
    /// elsewhere).
    mutating func releaseIfEmpty(slot: Int) {
        let block = slot >> Self.keyBits
        if headers[block].live == 0 { freeBlock(Int32(block)) }
    }

    /// Every filled slot's address.
    var addresses: [UInt] {
        var result: [UInt] = []
        result.reserveCapacity(count)
        for slot in 0..<(usedBlocks << Self.keyBits) where slots[slot] != 0 { result.append(slots[slot]) }
        return result
    }

    /// Empties every slot. Storage for up to `retainedSlots` slots is kept and cleared rather than freed, as
    /// `RegistryTable.removeAll(keepingUpTo:)` keeps its buckets.
    mutating func removeAll(keepingUpTo retainedSlots: Int) {
        count = 0
        usedBlocks = 0
        firstFree = -1
        indexCount = 0
        lastBlock = -1
        if slots.count <= retainedSlots {
            slots.update(repeating: 0)
            index.update(repeating: IndexEntry(tree: 0, high: 0, block: -1))
        } else {
            headers.deallocate()
            slots.deallocate()
            index.deallocate()
            headers = UnsafeMutableBufferPointer(start: nil, count: 0)
            slots = UnsafeMutableBufferPointer(start: nil, count: 0)
            index = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
    }

    // MARK: Blocks

    @inline(__always)
    private mutating func block(tree: UInt, high: Int64) -> Int32? {
        if lastBlock >= 0 && lastTree == tree && lastHigh == high { return lastBlock }
        guard indexCount > 0 else { return nil }
        let mask = index.count - 1
        var position = Self.hash(tree: tree, high: high) & mask
        while index[position].tree != 0 {
            if index[position].tree == tree && index[position].high == high {
                remember(tree: tree, high: high, block: index[position].block)
                return index[position].block
            }
            position = (position + 1) & mask
        }
        return nil
    }

    private mutating func remember(tree: UInt, high: Int64, block: Int32) {
        lastTree = tree
        lastHigh = high
        lastBlock = block
    }

    private mutating func addBlock(tree: UInt, high: Int64) -> Int32 {
        let block: Int32
        if firstFree >= 0 {
            block = firstFree
            firstFree = headers[Int(block)].nextFree
        } else {
            if usedBlocks == headers.count { growBlocks() }
            block = Int32(usedBlocks)
            usedBlocks += 1
        }
        headers[Int(block)] = Header(tree: tree, high: high, live: 0, nextFree: -1)
        if (indexCount + 1) * 2 > index.count { growIndex() }
        insertIntoIndex(IndexEntry(tree: tree, high: high, block: block))
        indexCount += 1
        remember(tree: tree, high: high, block: block)
        return block
    }

    private mutating func freeBlock(_ block: Int32) {
        let header = headers[Int(block)]
        removeFromIndex(tree: header.tree, high: header.high)
        indexCount -= 1
        if lastBlock == block { lastBlock = -1 }
        headers[Int(block)] = Header(tree: 0, high: 0, live: 0, nextFree: firstFree)
        firstFree = block
    }

    private mutating func growBlocks() {
        let blocks = max(64, headers.count * 2)
        let newHeaders = UnsafeMutableBufferPointer<Header>.allocate(capacity: blocks)
        let newSlots = UnsafeMutableBufferPointer<UInt>.allocate(capacity: blocks << Self.keyBits)
        if headers.count > 0 {
            _ = newHeaders.initialize(fromContentsOf: headers)
            _ = newSlots.initialize(fromContentsOf: slots)
        }
        newHeaders[headers.count...].initialize(repeating: Header(tree: 0, high: 0, live: 0, nextFree: -1))
        newSlots[slots.count...].initialize(repeating: 0)
        headers.deallocate()
        slots.deallocate()
        headers = newHeaders
        slots = newSlots
    }

    // MARK: Index

    static func hash(tree: UInt, high: Int64) -> Int {
        Int(truncatingIfNeeded: SplitMix64.finalize(UInt64(tree) ^ (UInt64(bitPattern: high) &* 0x9E37_79B9_7F4A_7C15)))
    }

    private mutating func insertIntoIndex(_ entry: IndexEntry) {
        let mask = index.count - 1
        var position = Self.hash(tree: entry.tree, high: entry.high) & mask
        while index[position].tree != 0 { position = (position + 1) & mask }
        index[position] = entry
    }

    /// Removes the entry for (tree, high) and shifts back the entries after it that probing would no longer reach.
    private mutating func removeFromIndex(tree: UInt, high: Int64) {
        let mask = index.count - 1
        var hole = Self.hash(tree: tree, high: high) & mask
        while !(index[hole].tree == tree && index[hole].high == high) { hole = (hole + 1) & mask }
        var next = (hole + 1) & mask
        while index[next].tree != 0 {
            let home = Self.hash(tree: index[next].tree, high: index[next].high) & mask
            // The entry at `next` may move to the hole when its home is not cyclically within (hole, next].
            let reachable = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !reachable {
                index[hole] = index[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        index[hole] = IndexEntry(tree: 0, high: 0, block: -1)
    }

    private mutating func growIndex() {
        let old = index
        index = .allocate(capacity: max(64, old.count * 2))
        index.initialize(repeating: IndexEntry(tree: 0, high: 0, block: -1))
        for entry in old where entry.tree != 0 { insertIntoIndex(entry) }
        old.deallocate()
    }
}
