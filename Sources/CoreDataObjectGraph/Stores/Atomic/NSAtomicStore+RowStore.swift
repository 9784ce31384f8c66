import CoreDataModel
import Foundation

/// An atomic store answers every fetch from its registered nodes, through the in-memory engine (`InMemoryRowTable`).
extension NSAtomicStore: RowStore {
    @discardableResult
    public func executeFetch(_ fetch: ResolvedFetch, forEachRow body: (consuming FetchedRow) throws -> Void) throws -> Int {
        let coordinator = try requireCoordinator()
        let ordered = try table.ordered(fetch).nodes
        let window = InMemoryRowTable.window(ordered, offset: fetch.fetchOffset, limit: fetch.fetchLimit)
        var lastEntity: NSEntityDescription?
        var slots: PropertySlots?
        for node in window {
            var snapshot: Snapshot?
            if fetch.includesPropertyValues {
                let entity = node.objectID.entity
                if entity !== lastEntity {
                    lastEntity = entity
                    slots = coordinator.slots(for: entity)
                }
                snapshot = try table.snapshot(of: node, slots: slots!)
            }
            try body(FetchedRow(objectID: node.objectID, snapshot: snapshot))
        }
        record(rows: window.count)
        return window.count
    }

    public func executeCount(_ fetch: ResolvedFetch) throws -> Int {
        try table.count(fetch)
    }

    public func executeDictionaryFetch(_ fetch: ResolvedFetch, _ shape: DictionaryShape) throws -> [FetchedDictionary] {
        let rows = try table.dictionaries(fetch, shape)
        record(rows: rows.count)
        return rows
    }

    public func fetchWindow(_ fetch: ResolvedFetch, start: FetchWindowStart, limit: Int) throws -> FetchWindow {
        let coordinator = try requireCoordinator()
        var unlimited = fetch
        unlimited.fetchLimit = 0
        unlimited.fetchOffset = 0
        let ordered = try table.ordered(unlimited, reusingOrder: true)
        let range = table.windowRange(fetch, start: start, limit: limit, ordered: ordered)
        var rows: [FetchedRow] = []
        rows.reserveCapacity(range.count)
        for position in range {
            let node = ordered.nodes[position]
            rows.append(FetchedRow(objectID: node.objectID,
                                   snapshot: try table.snapshot(of: node, slots: coordinator.slots(for: node.objectID.entity))))
        }
        func boundary(_ position: Int) -> SortBoundary {
            SortBoundary(values: ordered.keys.isEmpty ? [] : ordered.keys[position], primaryKey: ordered.nodes[position].objectID.primaryKey)
        }
        record(rows: rows.count)
        return FetchWindow(rows: rows, first: range.isEmpty ? nil : boundary(range.lowerBound),
                           last: range.isEmpty ? nil : boundary(range.upperBound - 1))
    }

    public func snapshots(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: Snapshot] {
        let coordinator = try requireCoordinator()
        var result: [NSManagedObjectID: Snapshot] = [:]
        for id in ids {
            guard let node = table.node(for: id), node.objectID.entity === id.entity else { continue }
            result[id] = try table.snapshot(of: node, slots: coordinator.slots(for: id.entity))
        }
        return result
    }

    public func missingRowReason(for id: NSManagedObjectID) -> String? {
        "\(urlDescription) holds no object \(id.uriRepresentation().absoluteString) (it was deleted, or never saved there)"
    }

    public func destinations(of id: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        guard let node = table.node(for: id) else {
            throw CoreDataError(.objectInaccessibleException, "\(urlDescription) holds no object \(id.uriRepresentation().absoluteString)",
                                affectedObjectIDs: [id])
        }
        return try table.destinations(of: node, relationship: relationship)
    }

    public func prefetchToMany(_ relationship: NSRelationshipDescription, sourceIDs: [NSManagedObjectID]) throws -> ToManyPrefetch {
        let coordinator = try requireCoordinator()
        var result = ToManyPrefetch()
        for source in sourceIDs {
            guard let node = table.node(for: source) else { continue }
            let destinations = try table.destinations(of: node, relationship: relationship)
            result.destinations[source] = destinations
            for destination in destinations where result.snapshots[destination] == nil {
                guard let destinationNode = table.node(for: destination) else { continue }
                result.snapshots[destination] = try table.snapshot(of: destinationNode, slots: coordinator.slots(for: destination.entity))
            }
        }
        return result
    }

    public func externalData(reference: String) throws -> Data {
        throw CoreDataError(.persistentStoreOperation, "\(urlDescription) keeps every value in its objects; it has no external data \(reference)")
    }

    private func requireCoordinator() throws -> NSPersistentStoreCoordinator {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(.persistentStoreOperation, "\(urlDescription) has been removed from its coordinator")
        }
        return coordinator
    }

    private func record(rows: Int) {
        persistentStoreCoordinator?.statistics.record { counts in
            counts.rowsFetched += rows
            counts.lastFetchRowCount = rows
        }
    }
}
