import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import XCTest

/// An object-by-object migration works in batches (`NSMigrationManager.objectBatchSize`): the destination is saved
/// and both contexts reset after each batch, and the associations are kept as keys, so the objects a context holds
/// stay bounded by the batch, not the store; the result is the same as in one batch, and a failure or a
/// cancellation after some batches were saved still leaves no destination and the source unchanged.
final class BatchedObjectMigrationTests: XCTestCase {
    private typealias Support = MigrationTestSupport
    private static let people = 300

    /// Version 2: each person's `label` comes from a key path, each car's `ownerName` from its owner, and a car must
    /// have an owner (required relationships exist only after phase 2, so batches are saved before validation).
    private func models(labelRequired: Bool = false) throws -> (NSManagedObjectModel, NSManagedObjectModel) {
        let v1 = try Support.model("""
            <entity name="Person" representedClassName="NSManagedObject">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
            </entity>
            <entity name="Car" representedClassName="NSManagedObject">
                <attribute name="plate" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
            </entity>
            """)
        let v2 = try Support.model("""
            <entity name="Person" representedClassName="NSManagedObject">
                <attribute name="label" optional="\(labelRequired ? "NO" : "YES")" attributeType="String"/>
                <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
            </entity>
            <entity name="Car" representedClassName="NSManagedObject">
                <attribute name="plate" attributeType="String"/>
                <attribute name="ownerName" optional="YES" attributeType="String"/>
                <relationship name="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
            </entity>
            """)
        return (v1, v2)
    }

    /// People 0..<300 (every seventh without a name), person i with i % 4 cars.
    private func makeSource(_ v1: NSManagedObjectModel) throws -> URL {
        let url = try Support.storeURL("Source.sqlite")
        try Support.makeStore(at: url, model: v1) { context in
            for index in 0..<Self.people {
                let person = Support.insert("Person", index % 7 == 3 ? [:] : ["name": "p\(index)"], into: context)
                for car in 0..<(index % 4) { Support.insert("Car", ["plate": "c\(index)-\(car)", "owner": person], into: context) }
            }
        }
        return url
    }

    private func mapping(policy: String? = nil) -> NSMappingModel {
        let people = NSEntityMapping(name: "PersonToPerson", mappingType: .customEntityMappingType, sourceEntityName: "Person", destinationEntityName: "Person")
        people.entityMigrationPolicyClassName = policy
        people.attributeMappings = [NSPropertyMapping(name: "label", valueExpression: NSExpression(format: "$source.name"))]
        people.relationshipMappings = [NSPropertyMapping(name: "cars", valueExpression:
            NSExpression(format: "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"CarToCar\", $source.cars)"))]
        let cars = NSEntityMapping(name: "CarToCar", mappingType: .customEntityMappingType, sourceEntityName: "Car", destinationEntityName: "Car")
        cars.entityMigrationPolicyClassName = policy
        cars.attributeMappings = [NSPropertyMapping(name: "plate", valueExpression: NSExpression(format: "$source.plate")),
                                  NSPropertyMapping(name: "ownerName", valueExpression: NSExpression(format: "$source.owner.name"))]
        cars.relationshipMappings = [NSPropertyMapping(name: "owner", valueExpression: NSExpression(format: "$source.owner"))]
        return NSMappingModel(entityMappings: [people, cars])
    }

    /// Every car of the destination with its owner's label, and every person's label with its cars.
    private func dump(_ url: URL, model: NSManagedObjectModel) throws -> [String] {
        let context = try Support.open(url, model: model, options: [:])
        return try context.performAndWait {
            let cars = try Support.fetch("Car", in: context, sortedBy: "plate").map { car in
                let owner = car.value(forKey: "owner") as? NSManagedObject
                return "car \(car.value(forKey: "plate") as? String ?? "?") \(car.value(forKey: "ownerName") as? String ?? "nil") "
                    + "owner=\(owner.map { $0.value(forKey: "label") as? String ?? "nil" } ?? "none")"
            }
            let people = try Support.fetch("Person", in: context, sortedBy: "label").map { person in
                let plates = (person.value(forKey: "cars") as? Set<NSManagedObject> ?? []).map { $0.value(forKey: "plate") as? String ?? "?" }
                return "person \(person.value(forKey: "label") as? String ?? "nil") [\(plates.sorted().joined(separator: ","))]"
            }
            return cars + people.sorted()
        }
    }

    private func migrate(_ source: URL, _ models: (NSManagedObjectModel, NSManagedObjectModel), mapping: NSMappingModel,
                         batchSize: Int, to name: String, type: String = NSSQLiteStoreType) throws -> URL {
        let destination = source.deletingLastPathComponent().appendingPathComponent(name)
        let manager = NSMigrationManager(sourceModel: models.0, destinationModel: models.1)
        manager.objectBatchSize = batchSize
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination,
                                 destinationType: type)
        return destination
    }

    func testContextsHoldABatchNotTheStoreAndTheResultIsTheSameAsInOneBatch() throws {
        let models = try models()
        let source = try makeSource(models.0)
        let before = try Support.snapshot(source)
        NSEntityMigrationPolicy.register(ContextWatchingPolicy.self, forClassName: "Tests.ContextWatchingPolicy")
        ContextWatchingPolicy.reset()
        let batched = try migrate(source, models, mapping: mapping(policy: "Tests.ContextWatchingPolicy"), batchSize: 10, to: "Batched.sqlite")
        let watched = ContextWatchingPolicy.watched
        let whole = try migrate(source, models, mapping: mapping(), batchSize: 100_000, to: "Whole.sqlite")

        let people = Self.people, cars = (0..<people).reduce(0) { $0 + $1 % 4 }
        XCTAssertEqual(watched.calls, 2 * (people + cars), "every instance was created and related")
        // A batch of 10 people reaches at most 30 cars (and the cars' owners are the batch's people).
        XCTAssertLessThanOrEqual(watched.maximumSource, 45, "the source context holds a batch and what it reaches, not \(people + cars) objects")
        XCTAssertLessThanOrEqual(watched.maximumDestination, 45, "the destination context is saved and reset after every batch")
        XCTAssertGreaterThan(watched.maximumSource, 0)
        let batchedDump = try dump(batched, model: models.1)
        XCTAssertEqual(batchedDump, try dump(whole, model: models.1), "batches give what one batch gives")
        XCTAssertEqual(batchedDump.count, people + cars)
        XCTAssertTrue(batchedDump.contains("car c5-0 p5 owner=p5"), batchedDump.first ?? "")
        XCTAssertTrue(batchedDump.contains("car c3-2 nil owner=nil"), "an owner without a name keeps its car")
        XCTAssertTrue(batchedDump.contains("person p7 [c7-0,c7-1,c7-2]"))
        XCTAssertEqual(try Support.snapshot(source), before, "the source store is never changed")
    }

    /// An atomic destination (XML, binary) is written whole at every save, so it is saved once, at the end: its
    /// objects all stay in the destination context until then (memory grows with the destination), and the file
    /// stays the empty store that adding it created. The source context still holds about one batch at a time.
    func testAnAtomicDestinationIsWrittenOnceAtTheEndWhileTheSourceContextHoldsABatch() throws {
        let models = try models()
        let source = try makeSource(models.0)
        let people = Self.people, cars = (0..<people).reduce(0) { $0 + $1 % 4 }
        NSEntityMigrationPolicy.register(ContextWatchingPolicy.self, forClassName: "Tests.ContextWatchingPolicy")
        for (type, name) in [(NSXMLStoreType, "Destination.xml"), (NSBinaryStoreType, "Destination.binary")] {
            ContextWatchingPolicy.reset()
            ContextWatchingPolicy.file = source.deletingLastPathComponent().appendingPathComponent(name)
            let destination = try migrate(source, models, mapping: mapping(policy: "Tests.ContextWatchingPolicy"), batchSize: 10,
                                          to: name, type: type)
            let watched = ContextWatchingPolicy.watched
            XCTAssertEqual(watched.calls, 2 * (people + cars), type)
            XCTAssertEqual(watched.fileSizes.count, 1, "\(type): the file does not change before the one save at the end")
            let during = try XCTUnwrap(watched.fileSizes.first)
            XCTAssertGreaterThan(try Data(contentsOf: destination).count, during + 1_000, "\(type): the objects are written at the end")
            XCTAssertLessThanOrEqual(watched.maximumSource, 45, "\(type): the source context holds a batch and what it reaches")
            XCTAssertEqual(watched.maximumDestination, people + cars, "\(type): every destination object waits for the one save")
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: models.1)
            let store = try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: destination, options: nil)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            let counts = try context.performAndWait {
                try ["Person", "Car"].map { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: $0)) }
            }
            XCTAssertEqual(counts, [people, cars], type)
            try coordinator.remove(store)
        }
    }

    func testAValidationFailureFoundAfterBatchesWereSavedLeavesNoDestination() throws {
        let models = try models(labelRequired: true)
        let source = try makeSource(models.0)
        let before = try Support.snapshot(source)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        XCTAssertThrowsError(try migrate(source, models, mapping: mapping(), batchSize: 10, to: "Destination.sqlite")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("do not validate") && text.contains("label"), text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "the partial destination is removed")
        XCTAssertEqual(try Support.snapshot(source), before)
    }

    func testCancellingInALaterBatchLeavesNoDestination() throws {
        let models = try models()
        let source = try makeSource(models.0)
        let before = try Support.snapshot(source)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        NSEntityMigrationPolicy.register(LateCancellingPolicy.self, forClassName: "Tests.LateCancellingPolicy")
        LateCancellingPolicy.created = 0
        XCTAssertThrowsError(try migrate(source, models, mapping: mapping(policy: "Tests.LateCancellingPolicy"), batchSize: 10,
                                         to: "Destination.sqlite")) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .migrationCancelled, "\(error)")
        }
        XCTAssertEqual(LateCancellingPolicy.created, 250, "cancelled in the 25th batch")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try Support.snapshot(source), before)
    }
}

/// Records how many objects the manager's contexts hold at every call.
final class ContextWatchingPolicy: NSEntityMigrationPolicy {
    struct Watched {
        var calls = 0, maximumSource = 0, maximumDestination = 0
        /// The sizes of `file` seen at the calls.
        var fileSizes: Set<Int> = []
    }
    nonisolated(unsafe) static var watched = Watched()
    /// The destination, whose existence is recorded at every call.
    nonisolated(unsafe) static var file: URL?
    static func reset() {
        watched = Watched()
        file = nil
    }

    private func watch(_ manager: NSMigrationManager) {
        Self.watched.calls += 1
        if let file = Self.file, let size = try? Data(contentsOf: file).count { Self.watched.fileSizes.insert(size) }
        Self.watched.maximumSource = max(Self.watched.maximumSource, manager.sourceContext?.registeredObjects.count ?? 0)
        Self.watched.maximumDestination = max(Self.watched.maximumDestination, manager.destinationContext?.registeredObjects.count ?? 0)
    }

    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        watch(manager)
    }

    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
        watch(manager)
    }
}

/// Cancels once 250 instances exist (in the 25th batch of ten).
final class LateCancellingPolicy: NSEntityMigrationPolicy {
    nonisolated(unsafe) static var created = 0

    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.created += 1
        if Self.created == 250 { manager.cancelMigrationWithError(CocoaError(.userCancelled)) }
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
}
