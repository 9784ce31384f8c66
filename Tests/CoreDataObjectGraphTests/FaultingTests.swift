import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import Synchronization
import Testing

/// Faults, the row cache, uniquing and prefetching, observed through the statistics and the SQL debug log.
@Suite(.serialized)
struct FaultingTests {
    /// Collects the SQL statements logged for one store while `body` runs.
    private func statements(for url: URL, _ body: () throws -> Void) rethrows -> [String] {
        let lines = Mutex<[String]>([])
        let path = url.path
        SQLDebugLog.level = 1
        SQLDebugLog.sink = { entry in
            if entry.storePath == path { lines.withLock { $0.append(entry.line) } }
        }
        defer {
            SQLDebugLog.sink = nil
            SQLDebugLog.level = 0
        }
        try body()
        return lines.withLock { $0 }.filter { $0.hasPrefix("CoreData: sql: ") }
    }

    @Test func fetchedObjectsAreFaultsThatFireFromTheRowCache() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            #expect(recipes.count == 40)
            #expect(recipes.allSatisfy { $0.isFault })
            #expect(stack.coordinator.statistics.snapshot.faultsFired == 0)
            let logged = statements(for: url) {
                #expect(recipes[3].value(forKey: "name") as? String == "Recipe 4")
            }
            #expect(logged.isEmpty, "the values came from the row cache")
            let counts = stack.coordinator.statistics.snapshot
            #expect(counts.faultsFired == 1 && counts.rowCacheHits == 1 && counts.rowCacheMisses == 0)
            #expect(!recipes[3].isFault && recipes[4].isFault, "only the touched object fired")
        }
    }

    @Test func withoutPropertyValuesOnlyIDsAreFetched() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.includesPropertyValues = false
            var recipes: [NSManagedObject] = []
            let fetchSQL = try statements(for: url) { recipes = try stack.context.fetch(request) }
            // Recipe has no subentities, so its entity number (5) is selected as a constant, as Core Data's SQL does.
            #expect(fetchSQL == ["CoreData: sql: SELECT t0.Z_PK, 5, t0.Z_OPT FROM ZRECIPE t0 ORDER BY t0.Z_PK ASC"])
            let faultSQL = statements(for: url) { _ = recipes[0].value(forKey: "minutes") }
            #expect(faultSQL.count == 1 && faultSQL[0].contains("WHERE t0.Z_PK IN (?)"), "a miss goes to the store")
            #expect(stack.coordinator.statistics.snapshot.rowCacheMisses == 1)
        }
    }

    /// A table shared by an inheritance tree is read with each row's `Z_ENT`, so every row becomes its concrete
    /// entity; a table of a single entity selects the entity number as a constant instead.
    @Test func entityNumbersAreReadOnlyWhereATableHoldsSeveralEntities() throws {
        let vehicle = NSEntityDescription(name: "Vehicle")
        vehicle.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType)])
        let car = NSEntityDescription(name: "Car")
        car.superentityName = "Vehicle"
        let garage = NSEntityDescription(name: "Garage")
        garage.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType)])
        let model = NSManagedObjectModel(entities: [vehicle, car, garage])
        let url = try TemporaryDirectory.make().appendingPathComponent("Vehicles.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            for number in 0..<4 {
                let entityName = number.isMultiple(of: 2) ? "Car" : "Vehicle"
                NSEntityDescription.insertNewObject(forEntityName: entityName, into: stack.context).setValue(Int64(number), forKey: "number")
            }
            NSEntityDescription.insertNewObject(forEntityName: "Garage", into: stack.context).setValue("North", forKey: "name")
            try stack.context.save()
            stack.context.reset()

            var vehicles: [NSManagedObject] = []
            let vehicleSQL = try statements(for: url) {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
                request.sortDescriptors = [Predicates.NSSortDescriptor(key: "number", ascending: true)]
                vehicles = try stack.context.fetch(request)
            }
            #expect(vehicleSQL.count == 1 && vehicleSQL[0].contains("SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT"))
            #expect(vehicles.map(\.entity.entityName) == ["Car", "Vehicle", "Car", "Vehicle"])
            #expect(vehicles.map { $0.value(forKey: "number") as? Int64 } == [0, 1, 2, 3])

            var garages: [NSManagedObject] = []
            let garageSQL = try statements(for: url) {
                garages = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Garage"))
            }
            #expect(garageSQL.count == 1 && garageSQL[0].contains(/SELECT t0\.Z_PK, \d+, t0\.Z_OPT/) && !garageSQL[0].contains("Z_ENT"))
            #expect(garages.map(\.entity.entityName) == ["Garage"] && garages[0].value(forKey: "name") as? String == "North")
        }
    }

    @Test func uniquingGivesOneObjectPerID() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let first = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            let second = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            #expect(zip(first, second).allSatisfy { $0 === $1 })
            #expect(stack.context.object(with: first[0].objectID) === first[0])
            let chef = try #require(first[0].value(forKey: "chef") as? NSManagedObject)
            let chefs = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            #expect(chefs.contains { $0 === chef })
        }
    }

    @Test func returnsObjectsAsFaultsFalseMaterialises() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.returnsObjectsAsFaults = false
            let recipes = try stack.context.fetch(request)
            #expect(recipes.allSatisfy { !$0.isFault })
            #expect(stack.coordinator.statistics.snapshot.faultsFired == 0)
        }
    }

    @Test func prefetchingTurnsNPlusOneIntoTwo() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 10, recipes: 20)
        // Without prefetching: one fetch, then one query per chef fault.
        let plain = try TestStack(storeURL: url, model: model)
        let withoutPrefetch = try plain.context.performAndWait {
            try statements(for: url) {
                let recipes = try plain.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
                for recipe in recipes { _ = (recipe.value(forKey: "chef") as? NSManagedObject)?.value(forKey: "name") }
            }
        }
        #expect(withoutPrefetch.count == 1 + 10)
        let prefetched = try TestStack(storeURL: url, model: model)
        let withPrefetch = try prefetched.context.performAndWait {
            try statements(for: url) {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
                request.relationshipKeyPathsForPrefetching = ["chef"]
                let recipes = try prefetched.context.fetch(request)
                for recipe in recipes { _ = (recipe.value(forKey: "chef") as? NSManagedObject)?.value(forKey: "name") }
            }
        }
        #expect(withPrefetch.count == 2, "\(withPrefetch)")
    }

    @Test func prefetchingToManyIsOneQueryAndKeepsOrder() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        let logged = try stack.context.performAndWait {
            try statements(for: url) {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
                request.relationshipKeyPathsForPrefetching = ["ingredients"]
                let recipes = try stack.context.fetch(request)
                for recipe in recipes {
                    let ingredients = try #require(recipe.value(forKey: "ingredients") as? [NSManagedObject])
                    #expect(ingredients.count == Int(recipe.objectID.primaryKey) % 4)
                    // Z_FOK_RECIPE was written descending by position, so keys come back in reverse insertion order.
                    #expect(ingredients.map(\.objectID.primaryKey) == ingredients.map(\.objectID.primaryKey).sorted(by: >))
                    for ingredient in ingredients { _ = ingredient.value(forKey: "name") }
                }
            }
        }
        #expect(logged.count == 2, "\(logged)")
    }

    @Test func prefetchedDestinationsKeepTheirRowsWhenTheRowCacheIsSmaller() throws {
        // A row cache of 4 snapshots cannot hold the prefetched ingredients; their faults keep their own rows, so
        // reading every ingredient still costs no statement beyond the fetch and the prefetch.
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model, rowCacheCapacity: 4)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let (logged, names) = try context.performAndWait {
            var names: [String] = []
            let logged = try statements(for: url) {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
                request.relationshipKeyPathsForPrefetching = ["ingredients"]
                for recipe in try context.fetch(request) {
                    let ingredients = try #require(recipe.value(forKey: "ingredients") as? [NSManagedObject])
                    names += ingredients.compactMap { $0.value(forKey: "name") as? String }
                }
            }
            return (logged, names)
        }
        #expect(names.count > 8, "more ingredients than the row cache holds")
        #expect(logged.count == 2, "\(logged)")
    }

    @Test("refresh(_:mergeChanges: false) drops an updated object's pending changes: it leaves updatedObjects, reads the store's values, and a save writes nothing")
    func refreshWithoutMergingDropsChanges() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0]
            recipe.setValue("Changed", forKey: "name")
            #expect(stack.context.updatedObjects.contains(recipe))
            stack.context.refresh(recipe, mergeChanges: false)
            #expect(recipe.isFault)
            #expect(!recipe.hasChanges)
            #expect(!stack.context.hasChanges)
            #expect(stack.context.updatedObjects.isEmpty)
            #expect(recipe.value(forKey: "name") as? String == "Recipe 1")
            try stack.context.save()
            #expect(recipe.value(forKey: "name") as? String == "Recipe 1")
        }
    }

    @Test func refreshAndResetTurnObjectsIntoFaults() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0]
            _ = recipe.value(forKey: "name")
            stack.context.refresh(recipe, mergeChanges: false)
            #expect(recipe.isFault)
            #expect(recipe.value(forKey: "name") as? String == "Recipe 1")
            stack.context.reset()
            #expect(recipe.managedObjectContext == nil)
            #expect(stack.context.registeredObjects.isEmpty)
        }
    }
}
