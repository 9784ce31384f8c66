@testable import CoreDataObjectGraph
import Testing

/// The association table of a batched migration: runs of consecutive keys while associations come in order, pairs
/// (searched through sorted permutations) once one does not; both answer the same.
struct AssociationTableTests {
    /// A reference answer: every pair kept, searched linearly.
    private func expected(_ pairs: [(UInt64, UInt64)]) -> (bySource: (UInt64) -> [UInt64], byDestination: (UInt64) -> [UInt64]) {
        ({ source in pairs.filter { $0.0 == source }.map(\.1) }, { destination in pairs.filter { $0.1 == destination }.map(\.0) })
    }

    private func check(_ pairs: [(UInt64, UInt64)]) {
        var table = AssociationTable()
        for (source, destination) in pairs { table.append(source: source, destination: destination) }
        #expect(table.count == pairs.count)
        for (index, pair) in pairs.enumerated() {
            let row = table.row(index)
            #expect(row.source == pair.0 && row.destination == pair.1, "row \(index)")
        }
        let reference = expected(pairs)
        let keys = Set(pairs.flatMap { [$0.0, $0.1] }).union([0, 999_999])
        for key in keys.sorted() {
            #expect(table.destinations(of: key) == reference.bySource(key), "destinations of \(key)")
            #expect(table.sources(of: key) == reference.byDestination(key), "sources of \(key)")
        }
    }

    @Test func inOrderAssociationsAreRunsAndAnswerLikePairs() {
        // Two runs (a gap in the sources, then in the destinations) and a single.
        check((1...50).map { ($0, $0 + 100) } + (60...80).map { ($0, $0 + 100) } + (81...90).map { ($0, $0 + 300) } + [(95, 500)])
    }

    @Test func anAssociationOutOfOrderTurnsTheRunsIntoPairs() {
        // A second destination for source 7, then sources and destinations going backwards.
        check((1...10).map { ($0, $0 + 20) } + [(7, 99)] + (1...5).reversed().map { ($0 + 40, $0) })
    }

    @Test func aSharedDestinationIsFoundFromEachSource() {
        check([(1, 10), (2, 10), (3, 11), (4, 10)])
    }
}
