@testable import CoreDataObjectGraph
import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Testing

/// Runs the storage room's debug invariant checks (`Storage/Storage+Invariants.swift`) after each kind of change to
/// the structures that hold objects and entries unretained: a broken invariant traps the test run.
@Suite(.serialized)
struct StorageInvariantTests {
    /// A writable store with `count` "Item" rows.
    private func itemsStack(count: Int) throws -> TestStack {
        let entity = NSEntityDescription(name: "Item")
        entity.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType),
                              NSAttributeDescription(name: "label", type: .stringAttributeType)])
        let model = NSManagedObjectModel(entities: [entity])
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            for number in 0..<count {
                NSEntityDescription.insertNewObject(forEntityName: "Item", into: stack.context).setValue(Int64(number), forKey: "number")
            }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    @Test func theRegistryKeepsItsInvariantsThroughFetchesReleasesInsertsSavesAndResets() throws {
        let stack = try itemsStack(count: 300)
        let registry = stack.context.registry
        // Releases are what this test checks: nothing is kept until the end of the block (ObjectLifetimeScopeTests).
        try ObjectLifetimeScope.withNothingKept { try stack.context.performAndWait {
            registry.checkInvariants()
            var objects = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            #expect(objects.count == 300)
            registry.checkInvariants()
            // Release every other object, then a whole run of consecutive keys (which empties blocks).
            objects = objects.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            registry.checkInvariants()
            objects.removeSubrange(20..<60)
            registry.checkInvariants()
            #expect(registry.count == objects.count)
            // Temporary IDs go to the hashed table; the save moves them to blocks under their permanent IDs.
            var inserted = (0..<50).map { number in
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: stack.context)
                item.setValue(Int64(1000 + number), forKey: "number")
                return item
            }
            registry.checkInvariants()
            try stack.context.save()
            #expect(inserted.allSatisfy { !$0.objectID.isTemporaryID })
            registry.checkInvariants()
            inserted.removeLast(25)
            registry.checkInvariants()
            // Faults for rows again, some already registered: uniquing keeps one entry per ID.
            let again = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            #expect(again.count == 350)
            registry.checkInvariants()
            stack.context.reset()
            registry.checkInvariants()
            #expect(registry.count == 0)
            #expect(objects.allSatisfy { $0.managedObjectContext == nil }, "a reset context is forgotten by its objects")
        } }
    }

    @Test func nameLookupsKeepTheirNamesAndFirstPositions() {
        let short = NameLookup(names: ["a", "b", "a", "c"])
        short.checkInvariants()
        #expect(short.position(of: "a") == 0 && short.position(of: "c") == 3 && short.position(of: "z") == nil)
        let long = NameLookup(names: (0..<40).map { "name\($0)" })
        long.checkInvariants()
        #expect(long.position(of: "name39") == 39)
    }

    @Test func slotDecoderTablesTileTheirMemory() {
        let table = SlotDecoderTable([(number: 1, decoders: [.unmapped, .unmapped]), (number: 4, decoders: [.unmapped]),
                                      (number: 2, decoders: [])])
        table.checkInvariants()
        #expect(table[1]?.count == 2 && table[4]?.count == 1 && table[2]?.count == 0 && table[3] == nil)
    }
}
