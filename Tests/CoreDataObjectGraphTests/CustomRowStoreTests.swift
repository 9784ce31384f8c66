import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import Testing

/// A store written outside the library against the public store interface alone: an `NSPersistentStore` subclass
/// adopting `RowStore`, serving a fixed list of cities (no predicates, sorts by primary key only) and refusing saves.
final class CityListStore: NSPersistentStore, RowStore, @unchecked Sendable {
    override class var storeType: String { "CityList" }
    static let cities = [("Lyon", 522_000), ("Nantes", 320_000), ("Lille", 236_000)]

    private func rows(_ entity: NSEntityDescription) -> [FetchedRow] {
        let slots = persistentStoreCoordinator!.propertySlots(for: entity)
        return Self.cities.enumerated().map { index, city in
            let values = slots.properties.map { property -> StoredValue in
                switch property.name {
                case "name": return .attribute(.string(city.0))
                case "population": return .attribute(.integer(Int64(city.1)))
                default: return .null
                }
            }
            return FetchedRow(objectID: newObjectID(for: entity, primaryKey: Int64(index + 1)), snapshot: Snapshot(values: values, version: 1))
        }
    }

    private func window(_ fetch: ResolvedFetch) throws -> ArraySlice<FetchedRow> {
        guard fetch.predicate == nil, fetch.sortDescriptors.isEmpty else {
            throw CoreDataError(.persistentStoreUnsupportedRequestType, "CityListStore answers plain fetches only")
        }
        let all = rows(fetch.entity)
        let start = min(fetch.fetchOffset, all.count)
        return all[start..<(fetch.fetchLimit > 0 ? min(all.count, start + fetch.fetchLimit) : all.count)]
    }

    func executeFetch(_ fetch: ResolvedFetch, forEachRow body: (consuming FetchedRow) throws -> Void) throws -> Int {
        let rows = try window(fetch)
        for row in rows { try body(fetch.includesPropertyValues ? row : FetchedRow(objectID: row.objectID, snapshot: nil)) }
        return rows.count
    }

    func executeCount(_ fetch: ResolvedFetch) throws -> Int { try window(fetch).count }

    func executeDictionaryFetch(_ fetch: ResolvedFetch, _ shape: DictionaryShape) throws -> [FetchedDictionary] {
        try window(fetch).map { row in
            FetchedDictionary(keys: ["name"], values: [Self.cities[Int(row.objectID.primaryKey) - 1].0])
        }
    }

    func fetchWindow(_ fetch: ResolvedFetch, start: FetchWindowStart, limit: Int) throws -> FetchWindow {
        // Without boundaries (nil below), the array asks for windows by offset, or from the end once it knows the count.
        let all = Array(try window(fetch))
        switch start {
        case .offset(let offset):
            return FetchWindow(rows: Array(all.dropFirst(offset).prefix(limit)), first: nil, last: nil)
        case .fromEnd(let offset):
            return FetchWindow(rows: Array(all.dropLast(offset).suffix(limit)), first: nil, last: nil)
        case .after, .before:
            throw CoreDataError(.persistentStoreUnsupportedRequestType, "this store gives no keyset boundaries")
        }
    }

    func snapshots(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: Snapshot] {
        guard let entity = ids.first?.entity else { return [:] }
        let all = rows(entity)
        var result: [NSManagedObjectID: Snapshot] = [:]
        for id in ids where id.primaryKey >= 1 && Int(id.primaryKey) <= all.count { result[id] = all[Int(id.primaryKey) - 1].snapshot }
        return result
    }

    func missingRowReason(for id: NSManagedObjectID) -> String? { "the city list has \(Self.cities.count) cities" }
    func destinations(of id: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] { [] }
    func prefetchToMany(_ relationship: NSRelationshipDescription, sourceIDs: [NSManagedObjectID]) throws -> ToManyPrefetch { ToManyPrefetch() }
    func externalData(reference: String) throws -> Data { Data() }

    func save(_ request: SaveRequest) throws -> SaveOutcome {
        throw CoreDataError(.persistentStoreSave, "the city list is read-only")
    }

    func reservePrimaryKeys(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        throw CoreDataError(.persistentStoreSave, "the city list is read-only")
    }
}

struct CustomRowStoreTests {
    @Test func aStoreOutsideTheLibraryAnswersThroughThePublicInterface() throws {
        NSPersistentStoreCoordinator.registerStoreClass(CityListStore.self, type: CityListStore.storeType)
        let city = NSEntityDescription(name: "City")
        city.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType),
                            NSAttributeDescription(name: "population", type: .integer32AttributeType)])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [city]))
        try coordinator.addPersistentStore(ofType: CityListStore.storeType, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "City")
            let cities = try context.fetch(request)
            #expect(cities.map { $0.value(forKey: "name") as? String } == ["Lyon", "Nantes", "Lille"])
            #expect(cities[1].value(forKey: "population", as: Int.self) == 320_000)
            request.fetchOffset = 1
            #expect(try context.count(for: request) == 2)
            request.fetchOffset = 0
            request.fetchBatchSize = 2
            let batched = try context.fetchBatched(request)
            #expect(batched.count == 3 && batched[2].value(forKey: "name") as? String == "Lille", "batch windows through the interface")
            let names = NSFetchRequest<[String: Any]>(entityName: "City")
            names.resultType = .dictionaryResultType
            #expect(try context.fetch(names).map { $0["name"] as? String } == ["Lyon", "Nantes", "Lille"])
            let filtered = NSFetchRequest<NSManagedObject>(entityName: "City")
            filtered.predicate = Predicates.NSPredicate(format: "population > 300000")
            let refused = try #require(throws: CoreDataError.self) { try context.fetch(filtered) }
            #expect(refused.message == "CityListStore answers plain fetches only")
            cities[0].setValue("Lugdunum", forKey: "name")
            let error = try #require(throws: CoreDataError.self) { try context.save() }
            #expect(error.message == "the city list is read-only")
        }
    }
}
