/// The destinations of a loaded to-many relationship, in order, with constant-time membership, appending and
/// removal: building or emptying a relationship of n objects one object at a time costs O(n), not O(n²).
///
/// Objects sit in *slots*. Removing one leaves a hole instead of shifting the others, so every other object keeps
/// its slot, and undo can put the removed object back into its own slot: the exact order returns. Holes are
/// squeezed out by `compacted()` once they outnumber the objects; whoever compacts keeps the old value to undo it.
/// Small relationships (the common case) are searched linearly and carry no index.
struct ToManyIDs: Sendable, Equatable {
    private(set) var slots: [NSManagedObjectID?] = []
    /// The slot of every member, once the relationship has grown past `indexThreshold` or been searched.
    private var positions: [NSManagedObjectID: Int]?
    /// Members (slots that are not holes).
    private(set) var count = 0

    /// Up to this many slots are searched linearly, without building an index.
    static let indexThreshold = 16

    init() {}

    /// The relationship holding `ids` in order; repeated IDs are kept once, at their first place.
    init(_ ids: [NSManagedObjectID]) {
        slots.reserveCapacity(ids.count)
        if ids.count <= Self.indexThreshold {
            for id in ids where !slots.contains(id) { slots.append(id) }
        } else {
            var positions: [NSManagedObjectID: Int] = [:]
            positions.reserveCapacity(ids.count)
            for id in ids where positions[id] == nil {
                positions[id] = slots.count
                slots.append(id)
            }
            self.positions = positions
        }
        count = slots.count
    }

    /// The members in order.
    var ids: [NSManagedObjectID] {
        count == slots.count ? slots.map { $0! } : slots.compactMap { $0 }
    }

    var isEmpty: Bool { count == 0 }

    var holes: Int { slots.count - count }

    func contains(_ id: NSManagedObjectID) -> Bool {
        slot(of: id) != nil
    }

    func slot(of id: NSManagedObjectID) -> Int? {
        if let positions { return positions[id] }
        return slots.firstIndex(of: id)
    }

    /// The member at a position counted in members (not slots).
    func id(at index: Int) -> NSManagedObjectID? {
        guard index >= 0, index < count else { return nil }
        if holes == 0 { return slots[index] }
        return slots.lazy.compactMap { $0 }.dropFirst(index).first
    }

    /// Adds `id` after the last slot; returns its slot, or nil when it is already a member.
    @discardableResult
    mutating func append(_ id: NSManagedObjectID) -> Int? {
        if contains(id) { return nil }
        let slot = slots.count
        slots.append(id)
        count += 1
        positions?[id] = slot
        if positions == nil && slots.count > Self.indexThreshold { buildIndex() }
        return slot
    }

    /// Removes `id`; returns the slot it held, or nil when it was not a member. The last slot is dropped, any other
    /// becomes a hole, so `restore(_:toSlot:)` can undo either exactly.
    mutating func remove(_ id: NSManagedObjectID) -> Int? {
        guard let slot = slot(of: id) else { return nil }
        positions?[id] = nil
        count -= 1
        if slot == slots.count - 1 {
            slots.removeLast()
        } else {
            slots[slot] = nil
        }
        return slot
    }

    /// Puts `id` back into the slot `remove` reported. When the slots changed since (something that bypassed undo,
    /// such as a refresh), the slot may not be free: then `id` goes to the end. Returns false if it was a member.
    @discardableResult
    mutating func restore(_ id: NSManagedObjectID, toSlot slot: Int) -> Bool {
        if contains(id) { return false }
        if slot < slots.count, slots[slot] == nil {
            slots[slot] = id
            count += 1
            positions?[id] = slot
            return true
        }
        if slot == slots.count {
            slots.append(id)
            count += 1
            positions?[id] = slot
            if positions == nil && slots.count > Self.indexThreshold { buildIndex() }
            return true
        }
        return append(id) != nil
    }

    /// Whether the holes outnumber the members enough to be worth squeezing out.
    var isSparse: Bool { holes > Self.indexThreshold && holes > count }

    /// The same members in the same order, without holes.
    func compacted() -> ToManyIDs {
        ToManyIDs(ids)
    }

    /// Replaces every ID found in `replacements` (temporary IDs that became permanent), keeping the slots.
    mutating func replaceIDs(_ replacements: [NSManagedObjectID: NSManagedObjectID]) {
        var changed = false
        for index in slots.indices {
            if let id = slots[index], let replacement = replacements[id] {
                slots[index] = replacement
                changed = true
            }
        }
        if changed && positions != nil { buildIndex() }
    }

    /// Same members in the same order (holes do not count).
    static func == (lhs: ToManyIDs, rhs: ToManyIDs) -> Bool {
        lhs.count == rhs.count && lhs.ids == rhs.ids
    }

    /// Whether the members are exactly `ids`, in order.
    func hasMembers(_ ids: [NSManagedObjectID]) -> Bool {
        guard ids.count == count else { return false }
        var index = 0
        for case let id? in slots {
            if id != ids[index] { return false }
            index += 1
        }
        return true
    }

    private mutating func buildIndex() {
        var positions: [NSManagedObjectID: Int] = [:]
        positions.reserveCapacity(slots.count)
        for (slot, id) in slots.enumerated() {
            if let id { positions[id] = slot }
        }
        self.positions = positions
    }
}
