import CoreDataModel
import Foundation

/// The source → destination associations of a running object-by-object migration, kept as store keys rather than
/// objects, so that the source and destination contexts can be reset after every batch and memory stays flat
/// however large the store (Apple's manager keeps the objects themselves alive; its guide advises splitting a large
/// migration into passes instead).
///
/// A key packs an entity's index (in `entities`) above a 48-bit primary key. Each mapping's table keeps runs of
/// consecutive keys while the associations allow, else 16 bytes per association (`AssociationTable`).
struct MigrationAssociations {
    /// The entities keys name, by index.
    private(set) var entities: [NSEntityDescription] = []
    private var entityIndexes: [ObjectIdentifier: UInt64] = [:]
    /// By entity mapping name.
    private(set) var tables: [String: AssociationTable] = [:]

    static let keyBits = 48
    static let keyMask: UInt64 = (1 << UInt64(keyBits)) - 1

    /// The packed key of a permanent ID.
    mutating func key(of id: NSManagedObjectID) throws -> UInt64 {
        let primaryKey = id.primaryKey
        guard !id.isTemporaryID, primaryKey > 0, UInt64(primaryKey) <= Self.keyMask else {
            throw CoreDataError(.migration, "\(id): a migration associates saved objects with primary keys below 2^48 only")
        }
        let entityIndex: UInt64
        if let known = entityIndexes[ObjectIdentifier(id.entity)] {
            entityIndex = known
        } else {
            entityIndex = UInt64(entities.count)
            entities.append(id.entity)
            entityIndexes[ObjectIdentifier(id.entity)] = entityIndex
        }
        return entityIndex << UInt64(Self.keyBits) | UInt64(primaryKey)
    }

    /// The packed key of `id` if its entity was ever associated (nil means: no association can name it).
    func existingKey(of id: NSManagedObjectID) -> UInt64? {
        guard !id.isTemporaryID, UInt64(max(0, id.primaryKey)) <= Self.keyMask,
              let entityIndex = entityIndexes[ObjectIdentifier(id.entity)] else { return nil }
        return entityIndex << UInt64(Self.keyBits) | UInt64(id.primaryKey)
    }

    /// The entity and primary key a packed key stands for.
    func unpack(_ key: UInt64) -> (entity: NSEntityDescription, primaryKey: Int64) {
        (entities[Int(key >> UInt64(Self.keyBits))], Int64(key & Self.keyMask))
    }

    mutating func append(mapping: String, source: UInt64, destination: UInt64) {
        tables[mapping, default: AssociationTable()].append(source: source, destination: destination)
    }

    /// The destination keys associated with `source` under `mapping`.
    mutating func destinations(of source: UInt64, mapping: String) -> [UInt64] {
        tables[mapping]?.destinations(of: source) ?? []
    }

    /// The source keys associated with `destination` under `mapping`.
    mutating func sources(of destination: UInt64, mapping: String) -> [UInt64] {
        tables[mapping]?.sources(of: destination) ?? []
    }

    /// The destination keys associated with `source` under any mapping (a source object standing in a relationship
    /// expression for its destination instance).
    mutating func destinationsUnderAnyMapping(of source: UInt64) -> [UInt64] {
        for name in tables.keys.sorted() {
            let found = tables[name]!.destinations(of: source)
            if !found.isEmpty { return found }
        }
        return []
    }

    func count(mapping: String) -> Int { tables[mapping]?.count ?? 0 }

    /// Row `index` of `mapping`'s table, in creation order.
    func row(_ index: Int, mapping: String) -> (source: UInt64, destination: UInt64) {
        tables[mapping]!.row(index)
    }
}

/// One entity mapping's associations, in creation order. While every association continues both key sequences
/// upwards (the usual case: sources fetched in key order, one destination each, inserted in order), they are kept as
/// runs of consecutive keys, a few bytes for a whole entity; the first association out of that order turns the table
/// into parallel arrays of source and destination keys (16 bytes each), searched through sorted permutations when
/// the keys are not in order.
struct AssociationTable {
    // Runs: associations first ..< first + length pair sourceStart + k with destinationStart + k.
    private var runSources = ContiguousArray<UInt64>()
    private var runDestinations = ContiguousArray<UInt64>()
    private var runFirstRows = ContiguousArray<Int>()
    private var runLengths = ContiguousArray<Int>()
    private var usesRuns = true
    // Pairs, once the runs no longer hold.
    private var sources = ContiguousArray<UInt64>()
    private var destinations = ContiguousArray<UInt64>()
    private var sourcesSorted = true
    private var destinationsSorted = true
    /// Row indexes sorted by source (destination) key, when the keys themselves are not in order; rebuilt when rows
    /// were added since.
    private var bySource = ContiguousArray<Int32>()
    private var byDestination = ContiguousArray<Int32>()

    private(set) var count = 0

    mutating func append(source: UInt64, destination: UInt64) {
        defer { count += 1 }
        if usesRuns {
            guard let lastSource = runSources.last, let lastDestination = runDestinations.last, let length = runLengths.last else {
                startRun(source, destination)
                return
            }
            let (sourceEnd, destinationEnd) = (lastSource + UInt64(length), lastDestination + UInt64(length))
            if source == sourceEnd && destination == destinationEnd {
                runLengths[runLengths.count - 1] += 1
                return
            }
            if source >= sourceEnd && destination >= destinationEnd {
                startRun(source, destination)
                return
            }
            expandRuns()
        }
        if let last = sources.last, last > source { sourcesSorted = false }
        if let last = destinations.last, last > destination { destinationsSorted = false }
        sources.append(source)
        destinations.append(destination)
    }

    private mutating func startRun(_ source: UInt64, _ destination: UInt64) {
        runSources.append(source)
        runDestinations.append(destination)
        runFirstRows.append(count)
        runLengths.append(1)
    }

    /// Turns the runs into pairs, for an association that breaks them.
    private mutating func expandRuns() {
        usesRuns = false
        sources.reserveCapacity(count + 1)
        destinations.reserveCapacity(count + 1)
        for run in runSources.indices {
            for offset in 0..<UInt64(runLengths[run]) {
                sources.append(runSources[run] + offset)
                destinations.append(runDestinations[run] + offset)
            }
        }
        sourcesSorted = zip(sources, sources.dropFirst()).allSatisfy { $0 <= $1 }
        destinationsSorted = zip(destinations, destinations.dropFirst()).allSatisfy { $0 <= $1 }
        runSources = []
        runDestinations = []
        runFirstRows = []
        runLengths = []
    }

    /// Row `index`, in creation order.
    func row(_ index: Int) -> (source: UInt64, destination: UInt64) {
        guard usesRuns else { return (sources[index], destinations[index]) }
        let run = Self.lastPosition(in: runFirstRows, notAbove: index)!
        let offset = UInt64(index - runFirstRows[run])
        return (runSources[run] + offset, runDestinations[run] + offset)
    }

    mutating func destinations(of source: UInt64) -> [UInt64] {
        if usesRuns {
            guard let run = Self.lastPosition(in: runSources, notAbove: source), source - runSources[run] < UInt64(runLengths[run]) else { return [] }
            return [runDestinations[run] + (source - runSources[run])]
        }
        if !sourcesSorted, bySource.count != sources.count { bySource = Self.permutation(sorting: sources) }
        return Self.matches(of: source, in: sources, through: sourcesSorted ? nil : bySource).map { destinations[$0] }
    }

    mutating func sources(of destination: UInt64) -> [UInt64] {
        if usesRuns {
            guard let run = Self.lastPosition(in: runDestinations, notAbove: destination),
                  destination - runDestinations[run] < UInt64(runLengths[run]) else { return [] }
            return [runSources[run] + (destination - runDestinations[run])]
        }
        if !destinationsSorted, byDestination.count != destinations.count { byDestination = Self.permutation(sorting: destinations) }
        return Self.matches(of: destination, in: destinations, through: destinationsSorted ? nil : byDestination).map { sources[$0] }
    }

    /// The last position of the ascending `values` whose value is at most `value`.
    private static func lastPosition<Value: Comparable>(in values: ContiguousArray<Value>, notAbove value: Value) -> Int? {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    private static func permutation(sorting keys: ContiguousArray<UInt64>) -> ContiguousArray<Int32> {
        var order = ContiguousArray<Int32>((0..<Int32(keys.count)))
        order.sort { keys[Int($0)] < keys[Int($1)] || (keys[Int($0)] == keys[Int($1)] && $0 < $1) }
        return order
    }

    /// The row indexes whose key is `key`, in creation order: a binary search over `keys` (through `order` when
    /// given), then the run of equal keys.
    private static func matches(of key: UInt64, in keys: ContiguousArray<UInt64>, through order: ContiguousArray<Int32>?) -> [Int] {
        func keyAt(_ position: Int) -> UInt64 { keys[order.map { Int($0[position]) } ?? position] }
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keyAt(middle) < key { low = middle + 1 } else { high = middle }
        }
        var rows: [Int] = []
        while low < keys.count, keyAt(low) == key {
            rows.append(order.map { Int($0[low]) } ?? low)
            low += 1
        }
        return rows
    }
}
