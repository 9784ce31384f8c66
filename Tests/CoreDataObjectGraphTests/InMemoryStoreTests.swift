import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// What only the in-memory store does, or does its own way: adding it without a file, losing its objects when removed,
/// migrating to and from SQLite, predicates naming objects, and inheritance evaluated in memory.
struct InMemoryStoreTests {
    /// Vehicle (abstract) with Car and Bike, and a Garage holding vehicles.
    static func vehiclesModel() -> NSManagedObjectModel {
        let vehicle = NSEntityDescription(name: "Vehicle")
        vehicle.isAbstract = true
        let car = NSEntityDescription(name: "Car"), bike = NSEntityDescription(name: "Bike"), garage = NSEntityDescription(name: "Garage")
        let garageLink = NSRelationshipDescription(name: "garage", destinationEntityName: "Garage")
        garageLink.inverseRelationshipName = "vehicles"
        garageLink.maxCount = 1
        let vehicles = NSRelationshipDescription(name: "vehicles", destinationEntityName: "Vehicle")
        vehicles.inverseRelationshipName = "garage"
        vehicle.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType),
                               NSAttributeDescription(name: "wheels", type: .integer16AttributeType), garageLink])
        car.setProperties([NSAttributeDescription(name: "seats", type: .integer16AttributeType)])
        garage.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), vehicles])
        car.superentityName = "Vehicle"
        bike.superentityName = "Vehicle"
        for entity in [vehicle, car, garage] { for property in entity.ownProperties { property.isOptional = true } }
        return NSManagedObjectModel(entities: [vehicle, car, bike, garage])
    }

    private func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func anInMemoryStoreNeedsNoFileAndForgetsItsObjectsWhenRemoved() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.vehiclesModel())
        let store = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, at: nil)
        #expect(store is NSInMemoryStore && store.type == NSInMemoryStoreType)
        let context = context(coordinator)
        try context.performAndWait {
            let garage = NSEntityDescription.insertNewObject(forEntityName: "Garage", into: context)
            garage.setValue("Home", forKey: "name")
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Garage")) == 1)
            #expect(garage.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata://\(store.identifier!)/Garage/p"))
            #expect(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: garage.objectID.uriRepresentation()) == garage.objectID)
        }
        try coordinator.remove(store)
        let again = try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let second = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, at: URL(fileURLWithPath: "/dev/null"))
        #expect(again !== second, "in-memory stores may share a URL: it names no file")
        let fresh = self.context(coordinator)
        let count = try fresh.performAndWait { try fresh.count(for: NSFetchRequest<NSManagedObject>(entityName: "Garage")) }
        #expect(count == 0, "a new in-memory store starts empty")
    }

    @Test func subentitiesObjectConstantsAndIDsInPredicates() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.vehiclesModel())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, at: nil)
        let context = context(coordinator)
        try context.performAndWait {
            let home = NSEntityDescription.insertNewObject(forEntityName: "Garage", into: context)
            home.setValue("Home", forKey: "name")
            let work = NSEntityDescription.insertNewObject(forEntityName: "Garage", into: context)
            work.setValue("Work", forKey: "name")
            for (entity, name, wheels, garage) in [("Car", "Estate", 4, home), ("Bike", "Racer", 2, home), ("Car", "Van", 4, work),
                                                   ("Bike", "Tandem", 2, work)] {
                let vehicle = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                vehicle.setValue(name, forKey: "name")
                vehicle.setValue(Int16(wheels), forKey: "wheels")
                vehicle.setValue(garage, forKey: "garage")
            }
            try context.save()
            let all = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
            all.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: false)]
            #expect(try context.fetch(all).map { $0.value(forKey: "name") as? String } == ["Van", "Tandem", "Racer", "Estate"])
            #expect(Set(try context.fetch(all).map(\.entity.entityName)) == ["Car", "Bike"], "subentities' objects, as their own entities")
            all.includesSubentities = false
            #expect(try context.fetch(all).isEmpty, "the abstract entity has no objects of its own")

            let atHome = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
            atHome.predicate = Predicates.NSPredicate(format: "garage == %@", home)
            atHome.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            #expect(try context.fetch(atHome).map { $0.value(forKey: "name") as? String } == ["Estate", "Racer"])
            atHome.predicate = Predicates.NSPredicate(format: "garage IN %@", [work.objectID])
            #expect(try context.fetch(atHome).map { $0.value(forKey: "name") as? String } == ["Tandem", "Van"])
            let cars = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car"))
            let byID = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
            byID.predicate = Predicates.NSPredicate(format: "SELF IN %@", cars.map(\.objectID))
            #expect(try context.count(for: byID) == 2)
            let garages = NSFetchRequest<NSManagedObject>(entityName: "Garage")
            garages.predicate = Predicates.NSPredicate(format: "SUBQUERY(vehicles, $v, $v.wheels == 2 AND $v.name BEGINSWITH 'T').@count > 0")
            #expect(try context.fetch(garages).map { $0.value(forKey: "name") as? String } == ["Work"])
            let unknown = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
            unknown.predicate = Predicates.NSPredicate(format: "garage == %@", NSEntityDescription.insertNewObject(forEntityName: "Garage", into: context))
            #expect(try context.fetch(unknown).isEmpty, "an unsaved object matches nothing the store holds")
        }
    }

    @Test func permanentIDsObtainedEarlyAreTheOnesSaved() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.vehiclesModel())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, at: nil)
        let context = context(coordinator)
        try context.performAndWait {
            let garage = NSEntityDescription.insertNewObject(forEntityName: "Garage", into: context)
            garage.setValue("Early", forKey: "name")
            let car = NSEntityDescription.insertNewObject(forEntityName: "Car", into: context)
            car.setValue("Coupe", forKey: "name")
            car.setValue(garage, forKey: "garage")
            try context.obtainPermanentIDs(for: [garage])
            let early = garage.objectID
            #expect(!early.isTemporaryID && car.objectID.isTemporaryID)
            try context.save()
            #expect(garage.objectID == early, "the save keeps the ID handed out early")
            let other = self.context(coordinator)
            let names = try other.performAndWait {
                let fetched = try other.existingObject(with: early)
                let vehicles = fetched.mutableSetValue(forKey: "vehicles").allObjects
                return [fetched.value(forKey: "name") as? String] + vehicles.map { $0.value(forKey: "name") as? String }
            }
            #expect(names == ["Early", "Coupe"])
        }
    }

    @Test func aPredicateTheEvaluatorRefusesIsAClearError() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.vehiclesModel())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, at: nil)
        let context = context(coordinator)
        try context.performAndWait {
            let garage = NSEntityDescription.insertNewObject(forEntityName: "Garage", into: context)
            garage.setValue("Home", forKey: "name")
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Garage")
            request.predicate = Predicates.NSPredicate(format: "FUNCTION(name, 'noSuchMethod') == 1")
            let error = try #require(throws: CoreDataError.self) { try context.fetch(request) }
            #expect(error.message.contains("cannot be evaluated on the store's objects"), "\(error.message)")
        }
    }

    /// An object's name (or a tag's label), what the dump names destinations by.
    private static func label(_ object: NSManagedObject) -> String {
        let key = object.entity.propertiesByName["name"] != nil ? "name" : "label"
        return "\(object.value(forKey: key) ?? "?")"
    }

    /// Every object of a store as text: entity, attributes, and relationships (to-many in order, as names), sorted.
    private func dump(_ context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            var lines: [String] = []
            for entity in context.persistentStoreCoordinator!.managedObjectModel.entities where !entity.isAbstract {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
                request.includesSubentities = false
                for object in try context.fetch(request) {
                    let values = entity.propertiesByName.keys.sorted().compactMap { key -> String? in
                        let property = entity.propertiesByName[key]!
                        if property.isTransient || property is NSDerivedAttributeDescription { return nil }
                        if let relationship = property as? NSRelationshipDescription {
                            let targets: [NSManagedObject]
                            if !relationship.isToMany {
                                targets = (object.value(forKey: key) as? NSManagedObject).map { [$0] } ?? []
                            } else if relationship.isOrdered {
                                targets = object.mutableOrderedSetValue(forKey: key).allObjects
                            } else {
                                targets = object.mutableSetValue(forKey: key).allObjects.sorted { Self.label($0) < Self.label($1) }
                            }
                            return "\(key)=\(targets.map(Self.label))"
                        }
                        return "\(key)=\(String(describing: object.value(forKey: key)))"
                    }
                    lines.append("\(entity.entityName) " + values.joined(separator: " "))
                }
            }
            return lines.sorted()
        }
    }

    @Test func migratingSQLiteToMemoryAndBackKeepsEveryObjectValueRelationshipAndTheAppsMetadata() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 10)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let sqlite = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let context = context(coordinator)
        try context.performAndWait {
            let recipes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("quick", forKey: "label")
            tag.mutableSetValue(forKey: "recipes").addObjects(from: [recipes[1], recipes[4]])
            try context.save()
        }
        coordinator.setMetadata(coordinator.metadata(for: sqlite).merging(["AppKey": "kept"]) { $1 }, for: sqlite)
        try context.performAndWait {
            let chef = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0]
            chef.setValue("chef@example.com", forKey: "email")
            try context.save()
        }
        let original = try dump(self.context(coordinator))

        let memory = try coordinator.migratePersistentStore(sqlite, to: URL(fileURLWithPath: "/dev/null"), withType: NSInMemoryStoreType)
        #expect(memory is NSInMemoryStore && coordinator.persistentStores.count == 1)
        #expect(memory.metadata["AppKey"] as? String == "kept" && memory.metadata[NSStoreTypeKey] as? String == NSInMemoryStoreType)
        #expect(try dump(self.context(coordinator)) == original)

        let back = try TemporaryDirectory.make().appendingPathComponent("back/Recipes.sqlite")
        let restored = try coordinator.migratePersistentStore(memory, to: back, type: .sqlite)
        #expect(restored is NSSQLiteStore && coordinator.persistentStores.count == 1)
        #expect(try dump(self.context(coordinator)) == original)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: back)
        #expect(metadata["AppKey"] as? String == "kept")
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
    }
}
