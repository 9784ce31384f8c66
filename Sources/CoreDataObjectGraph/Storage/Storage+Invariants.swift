import CSwiftRuntime
import Synchronization

// Debug-build checks of the invariants stated in `MemorySafety.swift`, as swift-collections checks its hash tables:
// each `checkInvariants()` walks a structure and traps on the first broken invariant. They cost a walk of the whole
// structure, so release builds compile them to nothing; tests call them after each kind of change.

extension RegistryBlocks {
    /// Checks the block table: counts agree with the slots, every block in use is indexed under its key and holds a
    /// filled slot, free blocks are empty and chained, and the index is at most half full.
    func checkInvariants() {
        #if DEBUG
        precondition(slots.count == headers.count << Self.keyBits, "a block of slots per header")
        precondition(usedBlocks <= headers.count && indexCount * 2 <= index.count, "room for the blocks and the index")
        var free = Set<Int>()
        var next = firstFree
        while next >= 0 {
            precondition(Int(next) < usedBlocks && free.insert(Int(next)).inserted, "the free list stays within the used blocks, once each")
            precondition(headers[Int(next)].live == 0 && headers[Int(next)].tree == 0, "a free block is empty")
            next = headers[Int(next)].nextFree
        }
        var filled = 0
        var indexed = 0
        for block in 0..<usedBlocks where !free.contains(block) {
            let header = headers[block]
            let live = (0..<Self.blockSize).count { slots[block << Self.keyBits | $0] != 0 }
            precondition(Int(header.live) == live && live > 0, "a block in use counts its filled slots, at least one")
            precondition(header.tree != 0, "a block in use has a key")
            filled += live
            indexed += 1
            let mask = index.count - 1
            var position = Self.hash(tree: header.tree, high: header.high) & mask
            while !(index[position].tree == header.tree && index[position].high == header.high) {
                precondition(index[position].tree != 0, "a block in use is reachable in the index")
                position = (position + 1) & mask
            }
            precondition(Int(index[position].block) == block, "the index names the block")
        }
        for slot in (usedBlocks << Self.keyBits)..<slots.count { precondition(slots[slot] == 0, "slots past the used blocks are empty") }
        precondition(filled == count, "count is the number of filled slots")
        precondition(indexed == indexCount && index.count { $0.tree != 0 } == indexCount, "one index entry per block in use")
        precondition(lastBlock < 0 || (!free.contains(Int(lastBlock)) && headers[Int(lastBlock)].tree == lastTree
                                        && headers[Int(lastBlock)].high == lastHigh), "the remembered block is the one of its key")
        #endif
    }
}

extension RegistryTable {
    /// Checks the hashed table: counts agree with the buckets, a quarter of the buckets stays empty, and every live
    /// entry is reachable by probing from its hash.
    func checkInvariants() {
        #if DEBUG
        precondition(buckets.isEmpty || buckets.count & (buckets.count - 1) == 0, "a power-of-two table")
        let live = buckets.filter { $0.address > Self.tombstone }
        precondition(live.count == count, "count is the number of live buckets")
        precondition(buckets.count { $0.address != Self.empty } == occupied, "occupied counts live buckets and tombstones")
        precondition(buckets.isEmpty || occupied <= maximumOccupancy, "a quarter of the buckets stays empty")
        precondition(Set(live.map(\.address)).count == live.count, "an object is filed once")
        let mask = buckets.count - 1
        for bucket in live {
            var position = bucket.hash & mask
            while buckets[position].address != bucket.address {
                precondition(buckets[position].address != Self.empty, "a live entry is reachable from its hash")
                position = (position + 1) & mask
            }
        }
        #endif
    }
}

extension ObjectRegistry {
    /// Checks both tables, and that every live object filed here is filed under its own ID, in the slot it records,
    /// and names this registry (invariant 1). Call it with no other thread using the registry's context.
    func checkInvariants() {
        #if DEBUG
        let retained = tables.withLock { tables -> [(address: UInt, blockSlot: Int?)] in
            tables.blocks.checkInvariants()
            tables.hashed.checkInvariants()
            var filed: [(address: UInt, blockSlot: Int?)] = []
            for slot in 0..<tables.blocks.slotCapacity where tables.blocks.address(at: slot) != 0 {
                filed.append((tables.blocks.address(at: slot), slot))
            }
            filed += tables.hashed.addresses.map { ($0, nil) }
            for entry in filed {
                precondition(tables.lookUp(ObjectRegistry.objectID(at: entry.address)) == entry.address, "an object is found under its ID")
            }
            // Retained under the lock (an object being deinitialised is skipped), released after it.
            return filed.filter { c_swift_try_retain(UnsafeMutableRawPointer(bitPattern: $0.address)!) != 0 }
        }
        for entry in retained {
            let object = Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: entry.address)!).takeRetainedValue()
            precondition(object.registration === self, "a filed object names the registry that files it")
            precondition(Int(object.registrySlot) == entry.blockSlot ?? -1, "a filed object records its slot")
        }
        #endif
    }
}

extension NameLookup {
    /// Checks that the owned keys are the names, and that the dictionary gives each name's first position.
    func checkInvariants() {
        #if DEBUG
        precondition(keys.count == names.count && zip(keys, names).allSatisfy { $0 == $1 }, "the keys are the names, in order")
        for (position, name) in names.enumerated() {
            precondition(positionByName[name].map { $0 <= position && names[$0] == name } == true, "a name maps to its first position")
        }
        #endif
    }
}

extension SlotDecoderTable {
    /// Checks that the entities' ranges tile the owned memory, in layout order.
    func checkInvariants() {
        #if DEBUG
        var next = 0
        for number in numbers {
            guard let range = ranges[number] else { preconditionFailure("every laid-out entity has its range") }
            precondition(range.lowerBound == next, "ranges are laid out back to back")
            next = range.upperBound
        }
        precondition(next == storage.count, "the ranges cover the storage")
        #endif
    }
}
