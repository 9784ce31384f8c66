@testable import CoreDataObjectGraph
import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Dispatch
import Foundation
import Predicates
import Testing
import UndoManagement

/// The context's registry holds objects without keeping them alive: each object removes its own entry when it goes
/// away, on whatever thread releases it last, and a lookup never revives an object whose deinitialisation has begun.
@Suite(.serialized)
struct ObjectRegistryTests {
    /// Looks its own ID up in its context while it is being deinitialised, and may make a new object take the ID.
    final class Probe: NSManagedObject {
        nonisolated(unsafe) static var lookupsDuringDeinit: [Bool] = []
        nonisolated(unsafe) static var replacements: [NSManagedObject] = []
        nonisolated(unsafe) static var replaceDuringDeinit = false

        deinit {
            guard let context = managedObjectContext else { return }
            Self.lookupsDuringDeinit.append(context.registeredObject(for: objectID) != nil)
            if Self.replaceDuringDeinit {
                // A new fault takes the ID while this object is still finishing; its entry must survive us. Kept
                // alive here, or its own deinit would replace it in turn without end.
                Self.replacements.append(context.object(with: objectID))
            }
        }
    }

    /// A store with `count` objects of `entityName`; entity "RegistryProbe" gets the `Probe` subclass.
    private func probesStack(count: Int, entityName: String = "RegistryProbe") throws -> TestStack {
        let entity = NSEntityDescription(name: entityName)
        entity.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType)])
        let model = NSManagedObjectModel(entities: [entity])
        let url = try TemporaryDirectory.make().appendingPathComponent("Probes.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            for number in 0..<count {
                NSEntityDescription.insertNewObject(forEntityName: entityName, into: stack.context).setValue(Int64(number), forKey: "number")
            }
            try stack.context.save()
            stack.context.reset()
        }
        NSManagedObject.register(Probe.self, forEntityName: "RegistryProbe")
        return stack
    }

    @Test func anObjectNobodyHoldsLeavesItsContext() throws {
        let stack = try probesStack(count: 3)
        try releasingAtOnce(stack.context) {
            var ids: [NSManagedObjectID] = []
            do {
                let objects = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryProbe"))
                ids = objects.map(\.objectID)
                #expect(ids.allSatisfy { stack.context.registeredObject(for: $0) != nil })
                #expect(stack.context.registeredObjects.count == 3)
            }
            #expect(ids.count == 3)
            #expect(ids.allSatisfy { stack.context.registeredObject(for: $0) == nil }, "released objects are forgotten")
            #expect(stack.context.registeredObjects.isEmpty)
        }
    }

    @Test func aDeinitialisingObjectIsNeverFoundAndItsReplacementSurvivesIt() throws {
        let stack = try probesStack(count: 2)
        Probe.lookupsDuringDeinit = []
        Probe.replacements = []
        Probe.replaceDuringDeinit = true
        defer {
            Probe.replaceDuringDeinit = false
            Probe.replacements = []
        }
        try releasingAtOnce(stack.context) {
            var ids: [NSManagedObjectID] = []
            do {
                let objects = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryProbe"))
                #expect(objects.allSatisfy { $0 is Probe })
                ids = objects.map(\.objectID)
            }
            #expect(Probe.lookupsDuringDeinit == [false, false], "a lookup during deinit does not revive the object")
            Probe.replaceDuringDeinit = false
            #expect(Set(Probe.replacements.map(\.objectID)) == Set(ids))
            for replacement in Probe.replacements {
                #expect(stack.context.registeredObject(for: replacement.objectID) === replacement,
                        "the dying object's deinit left its replacement's entry alone")
            }
            Probe.replacements = []
            #expect(ids.allSatisfy { stack.context.registeredObject(for: $0) == nil }, "released replacements are forgotten")
            // Uniquing still holds afterwards: one object per ID, with its values.
            let again = stack.context.object(with: ids[0])
            #expect(stack.context.object(with: ids[0]) === again)
            #expect(again.value(forKey: "number") as? Int64 != nil)
        }
    }

    /// The registry's table files IDs by a hash of their primary key, so objects of two entities with the same keys
    /// collide on every entry; removals leave tombstones, and the table grows and rehashes as a fetch registers
    /// thousands of objects. Every lookup must still find exactly its own object.
    @Test func collidingKeysRemovalsAndGrowthKeepOneObjectPerID() throws {
        let first = NSEntityDescription(name: "RegistryLeft")
        first.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType)])
        let second = NSEntityDescription(name: "RegistryRight")
        second.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType)])
        let model = NSManagedObjectModel(entities: [first, second])
        let url = try TemporaryDirectory.make().appendingPathComponent("Colliding.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try releasingAtOnce(stack.context) {
            for number in 0..<3_000 {
                for name in ["RegistryLeft", "RegistryRight"] {
                    NSEntityDescription.insertNewObject(forEntityName: name, into: stack.context).setValue(Int64(number), forKey: "number")
                }
            }
            try stack.context.save()
            stack.context.reset()
            var left = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryLeft"))
            var right = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryRight"))
            #expect(left.count == 3_000 && right.count == 3_000)
            #expect(Set(left.map(\.objectID.primaryKey)) == Set(right.map(\.objectID.primaryKey)), "the same keys in both tables")
            for object in left + right {
                #expect(stack.context.registeredObject(for: object.objectID) === object)
            }
            // Drop every other object (their entries become tombstones), then fetch again: the dropped ones come
            // back as new objects, the kept ones are found again.
            let keptLeft = Dictionary(uniqueKeysWithValues: left.enumerated().filter { $0.offset % 2 == 0 }.map { ($0.element.objectID, $0.element) })
            let keptRight = Dictionary(uniqueKeysWithValues: right.enumerated().filter { $0.offset % 2 == 1 }.map { ($0.element.objectID, $0.element) })
            left = []
            right = []
            #expect(stack.context.registeredObjects.count == 3_000)
            let leftAgain = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryLeft"))
            let rightAgain = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryRight"))
            for object in leftAgain {
                if let kept = keptLeft[object.objectID] { #expect(kept === object, "a live object is found, not replaced") }
                #expect(stack.context.registeredObject(for: object.objectID) === object)
                #expect(object.entity.entityName == "RegistryLeft")
            }
            for object in rightAgain {
                if let kept = keptRight[object.objectID] { #expect(kept === object, "a live object is found, not replaced") }
                #expect(stack.context.registeredObject(for: object.objectID) === object)
            }
            #expect(stack.context.registeredObjects.count == 6_000)
        }
    }

    /// Objects refer to their context unretained; a context that goes away must tell every object it still lists,
    /// faults and filled objects alike, so none is left pointing at freed memory.
    @Test func objectsThatOutliveTheirContextForgetIt() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 4)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        var survivors: [NSManagedObject] = []
        weak var goneContext: NSManagedObjectContext?
        do {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            goneContext = context
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
                request.relationshipKeyPathsForPrefetching = ["chef", "ingredients"]
                let recipes = try context.fetch(request)
                #expect(recipes.count == 4)
                _ = recipes[0].value(forKey: "name")
                survivors = recipes + [context.object(with: recipes[1].objectIDForToOne("chef")!)]
                #expect(survivors.allSatisfy { $0.managedObjectContext === context })
            }
        }
        #expect(goneContext == nil, "objects do not keep their context alive")
        for object in survivors {
            #expect(object.managedObjectContext == nil)
            _ = object.value(forKey: "name")  // a fault without a context reads as nil instead of reaching freed memory
        }
        #expect(survivors[0].value(forKey: "name") as? String != nil, "a filled object keeps its values")
    }

    @Test func objectsReleasedOnOtherThreadsWhileTheContextLooksThemUp() throws {
        // A plain entity: `Probe`'s deinit would record from two threads at once.
        let stack = try probesStack(count: 200, entityName: "RegistryPlain")
        let ids = try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObjectID>(entityName: "RegistryPlain").withResultType(.managedObjectIDResultType))
        }
        // Objects are not Sendable; this box breaks the rule on purpose, as a careless caller would, to prove that a
        // last release on another thread cannot corrupt the registry.
        final class Handoff: @unchecked Sendable { var objects: [NSManagedObject] = [] }
        for _ in 0..<20 {
            let handoff = Handoff()
            stack.context.performAndWait {
                handoff.objects = ids.map { stack.context.object(with: $0) }
            }
            let released = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                handoff.objects.removeAll()  // the last references go away on this thread
                released.signal()
            }
            try stack.context.performAndWait {
                for id in ids {
                    let object = stack.context.object(with: id)
                    #expect(object.objectID == id)
                    #expect(stack.context.object(with: id) === object, "one object per ID")
                }
                _ = try stack.context.existingObject(with: ids[0]).value(forKey: "number")
            }
            released.wait()
        }
        let number = try stack.context.performAndWait {
            try stack.context.existingObject(with: ids[199]).value(forKey: "number") as? Int64
        }
        #expect(number == 199)
    }

    /// Permanent IDs are filed in slots by (inheritance tree, primary key). IDs that share a slot without being equal
    /// (the same entity and key in another store) must go elsewhere and still be found, and an ID naming the root of a
    /// tree must find the object registered under its subentity's ID, because IDs of one tree with the same key are equal.
    @Test func idsSharingASlotAndIDsOfOneTreeKeepOneObjectPerID() throws {
        let vehicle = NSEntityDescription(name: "RegistryVehicle")
        vehicle.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType)])
        let car = NSEntityDescription(name: "RegistryCar")
        car.superentityName = "RegistryVehicle"
        let model = NSManagedObjectModel(entities: [vehicle, car])
        let url = try TemporaryDirectory.make().appendingPathComponent("Trees.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try releasingAtOnce(stack.context) {
            for number in 0..<100 {
                NSEntityDescription.insertNewObject(forEntityName: "RegistryCar", into: stack.context).setValue(Int64(number), forKey: "number")
            }
            try stack.context.save()
            stack.context.reset()
            let carEntity = try #require(model.entitiesByName["RegistryCar"])
            let vehicleEntity = try #require(model.entitiesByName["RegistryVehicle"])
            var cars = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryCar"))
            #expect(cars.count == 100)
            let store = try #require(cars[0].objectID.storeIdentifier)

            // The same keys in another store: other IDs, other objects, each found under its own ID.
            let foreignIDs = cars.map { NSManagedObjectID(entity: carEntity, storeIdentifier: "OTHER-STORE", primaryKey: $0.objectID.primaryKey) }
            let foreign = foreignIDs.map { stack.context.object(with: $0) }
            for (object, id) in zip(foreign, foreignIDs) {
                #expect(stack.context.registeredObject(for: id) === object)
                #expect(!cars.contains { $0 === object })
            }
            for object in cars { #expect(stack.context.registeredObject(for: object.objectID) === object) }

            // An ID naming the root entity with a car's key is that car's ID.
            for object in cars {
                let rootID = NSManagedObjectID(entity: vehicleEntity, storeIdentifier: store, primaryKey: object.objectID.primaryKey)
                #expect(rootID == object.objectID)
                #expect(stack.context.registeredObject(for: rootID) === object)
                #expect(stack.context.object(with: rootID) === object)
            }

            // The cars go away (their slots empty and their blocks are freed); the foreign objects stay found, and a
            // fetch registers new cars without disturbing them.
            let carIDs = cars.map(\.objectID)
            cars = []
            #expect(carIDs.allSatisfy { stack.context.registeredObject(for: $0) == nil })
            for (object, id) in zip(foreign, foreignIDs) { #expect(stack.context.registeredObject(for: id) === object) }
            let again = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryVehicle"))
            #expect(Set(again.map(\.objectID)) == Set(carIDs))
            for object in again { #expect(stack.context.registeredObject(for: object.objectID) === object) }
            for (object, id) in zip(foreign, foreignIDs) { #expect(stack.context.registeredObject(for: id) === object) }
            #expect(stack.context.registeredObjects.count == 200)
        }
    }

    /// Objects released in an order unrelated to their keys leave slots and blocks empty here and there; the blocks
    /// are reused for other keys, and every lookup still finds exactly its own object.
    @Test func objectsReleasedOutOfKeyOrderLeaveNoStaleEntries() throws {
        let stack = try probesStack(count: 2_000, entityName: "RegistryShuffled")
        try releasingAtOnce(stack.context) {
            var generator = SystemRandomNumberGenerator()
            for round in 0..<4 {
                let request = NSFetchRequest<NSManagedObject>(entityName: "RegistryShuffled")
                // Key order, then descending numbers (the reverse of key order).
                if round % 2 == 1 { request.sortDescriptors = [Predicates.NSSortDescriptor(key: "number", ascending: false)] }
                var objects = try stack.context.fetch(request)
                #expect(objects.count == 2_000)
                objects.shuffle(using: &generator)
                let kept = Array(objects.prefix(round * 300))
                objects = []
                #expect(stack.context.registeredObjects.count == kept.count)
                for object in kept { #expect(stack.context.registeredObject(for: object.objectID) === object) }
                let again = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryShuffled"))
                let keptIDs = Set(kept.map(\.objectID))
                for object in again {
                    #expect(stack.context.registeredObject(for: object.objectID) === object)
                    if keptIDs.contains(object.objectID) { #expect(kept.contains { $0 === object }, "a live object is found, not replaced") }
                }
            }
            #expect(stack.context.registeredObjects.isEmpty)
            stack.context.reset()
            let afterReset = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RegistryShuffled"))
            #expect(stack.context.registeredObjects.count == afterReset.count)
        }
    }

    /// A seeded random walk over fetches, lookups, releases, foreign IDs and resets, checked after every step against a
    /// plain dictionary of the objects the test holds: the registry must find exactly those, and nothing else.
    /// A save refiles its inserted objects under permanent IDs all at once: emptying the table of temporary IDs when
    /// they are all it holds, and removing them one by one when other unsaved objects share the table.
    @Test func savedObjectsAreRefiledUnderPermanentIDsAndUnsavedOnesStay() throws {
        let stack = try probesStack(count: 0, entityName: "RefiledProbe")
        try stack.context.performAndWait {
            let context = stack.context
            func insert(_ count: Int) -> [NSManagedObject] {
                (0..<count).map { number in
                    let object = NSEntityDescription.insertNewObject(forEntityName: "RefiledProbe", into: context)
                    object.setValue(Int64(number), forKey: "number")
                    return object
                }
            }
            // Only some temporary IDs become permanent: the others must stay registered under theirs.
            let early = insert(50), later = insert(30)
            let earlyTemporary = early.map(\.objectID), laterTemporary = later.map(\.objectID)
            try context.obtainPermanentIDs(for: early)
            #expect(early.allSatisfy { !$0.objectID.isTemporaryID })
            for (object, temporary) in zip(early, earlyTemporary) {
                #expect(context.registeredObject(for: object.objectID) === object)
                #expect(context.registeredObject(for: temporary) == nil)
            }
            for (object, temporary) in zip(later, laterTemporary) { #expect(context.registeredObject(for: temporary) === object) }

            // The save refiles the rest, which are now all the temporary IDs there are.
            try context.save()
            #expect(later.allSatisfy { !$0.objectID.isTemporaryID })
            for object in early + later { #expect(context.registeredObject(for: object.objectID) === object) }
            for temporary in laterTemporary { #expect(context.registeredObject(for: temporary) == nil) }
            #expect(context.registeredObjects.count == 80)

            // Objects inserted after the save start a new table of temporary IDs, and saving them works the same.
            let next = insert(5)
            try context.save()
            for object in next { #expect(context.registeredObject(for: object.objectID) === object) }
            #expect(context.registeredObjects.count == 85)
        }
    }

    /// Permanent IDs asked for an object that has left the context (its insertion undone) are not given, and refiling
    /// the context's own objects leaves the departed one out of the registry.
    @Test func permanentIDsForAnObjectThatLeftTheContextKeepOtherTemporaryEntries() throws {
        let stack = try probesStack(count: 0, entityName: "LeftProbe")
        try stack.context.performAndWait {
            let context = stack.context
            context.undoManager = UndoManager()
            let left = NSEntityDescription.insertNewObject(forEntityName: "LeftProbe", into: context)
            context.processPendingChanges()
            context.undo()
            #expect(left.managedObjectContext == nil && context.registeredObject(for: left.objectID) == nil)
            context.undoManager = nil

            let staying = NSEntityDescription.insertNewObject(forEntityName: "LeftProbe", into: context)
            // The departed object still names this registry; removing its entries must not empty the table of
            // temporary IDs, which holds as many entries (one, the other object's).
            context.registry.removeEntries(of: [left])
            #expect(context.registeredObject(for: staying.objectID) === staying, "the other temporary entry stays")
            try context.obtainPermanentIDs(for: [left, staying])
            #expect(left.objectID.isTemporaryID, "an object outside the context keeps its temporary ID")
            #expect(!staying.objectID.isTemporaryID && context.registeredObject(for: staying.objectID) === staying)
            #expect(context.registeredObject(for: left.objectID) == nil)
            try context.save()
            #expect(context.registeredObject(for: staying.objectID) === staying)
        }
    }

    @Test func aRandomWalkOfRegistrationsMatchesAPlainDictionary() throws {
        let stack = try probesStack(count: 600, entityName: "RegistryWalk")
        try releasingAtOnce(stack.context) {
            let context = stack.context
            let ids = try context.fetch(NSFetchRequest<NSManagedObjectID>(entityName: "RegistryWalk").withResultType(.managedObjectIDResultType))
            #expect(ids.count == 600)
            let entity = try #require(ids.first?.entity)
            let foreignIDs = ids.map { NSManagedObjectID(entity: entity, storeIdentifier: "OTHER-STORE", primaryKey: $0.primaryKey) }
            var held: [NSManagedObjectID: NSManagedObject] = [:]
            var state: UInt64 = 2007
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            for step in 0..<1_500 {
                switch next(10) {
                case 0, 1, 2:
                    let id = next(4) == 0 ? foreignIDs[next(600)] : ids[next(600)]
                    let object = context.object(with: id)
                    if let existing = held[id] { #expect(existing === object, "step \(step): one object per ID") }
                    held[id] = object
                case 3, 4, 5:
                    held[next(4) == 0 ? foreignIDs[next(600)] : ids[next(600)]] = nil
                case 6, 7:
                    let request = NSFetchRequest<NSManagedObject>(entityName: "RegistryWalk")
                    if next(2) == 0 { request.sortDescriptors = [Predicates.NSSortDescriptor(key: "number", ascending: false)] }
                    let objects = try context.fetch(request)
                    for object in objects {
                        if let existing = held[object.objectID] { #expect(existing === object, "step \(step): a fetch finds held objects") }
                        if next(3) == 0 { held[object.objectID] = object }
                    }
                case 8:
                    // Drop a run of consecutive keys at once (whole blocks empty and are freed).
                    let start = next(600)
                    for id in ids[start..<min(600, start + 40)] { held[id] = nil }
                default:
                    if next(8) == 0 {
                        context.reset()
                        held.removeAll()
                    }
                }
                if step % 25 == 0 || step == 1_499 {
                    #expect(context.registeredObjects.count == held.count, "step \(step)")
                    for id in ids + foreignIDs {
                        #expect(context.registeredObject(for: id) === held[id], "step \(step): \(id)")
                    }
                }
            }
        }
    }
}

private extension NSFetchRequest {
    func withResultType(_ type: NSFetchRequestResultType) -> NSFetchRequest {
        resultType = type
        return self
    }
}

/// Runs `body` on `context`'s queue with nothing kept beyond its use: these tests exercise the registry's release
/// paths, which a unit of work's keeping of handed-out objects would postpone to its end (`ObjectLifetimeScopeTests`
/// covers that keeping).
private func releasingAtOnce<R>(_ context: NSManagedObjectContext, _ body: () throws -> R) rethrows -> R {
    try ObjectLifetimeScope.withNothingKept { try context.performAndWait(body) }
}
