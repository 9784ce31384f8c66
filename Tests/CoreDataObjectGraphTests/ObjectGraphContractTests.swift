import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing
import UndoManagement

/// Points of the write half's contract that no other suite covers on its own: relationship counts and custom
/// validation hooks, delete rules applied by `save()` alone, contexts without undo managers, undo of an insert,
/// pulling values through the nearest of several parent levels, main-queue contexts, Sendable object IDs, a
/// conflict that leaves the file byte-identical, and an Apple store edited through the API.
struct ObjectGraphContractTests {
    /// A team with 1...2 members; a `Member` subclass refuses the name "nobody" in its own validation hook.
    final class Member: NSManagedObject {
        struct Refused: Error, CustomStringConvertible { var description: String { "nobody is not a name" } }
        override func validateForInsert() throws {
            try super.validateForInsert()
            if value(forKey: "name") as? String == "nobody" { throw Refused() }
        }
    }

    private func teamsStack() throws -> (TestStack, URL) {
        let team = NSEntityDescription(name: "ContractTeam"), member = NSEntityDescription(name: "ContractMember")
        let members = NSRelationshipDescription(name: "members", destinationEntityName: "ContractMember")
        members.inverseRelationshipName = "team"
        members.minCount = 1
        members.maxCount = 2
        members.isOptional = false
        let owner = NSRelationshipDescription(name: "team", destinationEntityName: "ContractTeam")
        owner.inverseRelationshipName = "members"
        owner.maxCount = 1
        owner.isOptional = true
        team.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), members])
        member.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), owner])
        let model = NSManagedObjectModel(entities: [team, member])
        let url = try TemporaryDirectory.make().appendingPathComponent("Teams.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        NSManagedObject.register(Member.self, forEntityName: "ContractMember")
        return (try TestStack(storeURL: url, model: model, options: [:]), url)
    }

    @Test func relationshipCountsAndCustomHooksFailTogether() throws {
        let (stack, url) = try teamsStack()
        let before = try Data(contentsOf: url)
        try stack.context.performAndWait {
            let empty = NSEntityDescription.insertNewObject(forEntityName: "ContractTeam", into: stack.context)
            empty.setValue("Empty", forKey: "name")
            let crowded = NSEntityDescription.insertNewObject(forEntityName: "ContractTeam", into: stack.context)
            crowded.setValue("Crowded", forKey: "name")
            for name in ["a", "b", "nobody"] {
                let member = NSEntityDescription.insertNewObject(forEntityName: "ContractMember", into: stack.context)
                #expect(member is Member)
                member.setValue(name, forKey: "name")
                crowded.mutableSetValue(forKey: "members").add(member)
            }
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .validationMultipleErrors)
            let codes = error.detailedErrors.map(\.code)
            #expect(codes.contains(.validationRelationshipLacksMinimumCount) && codes.contains(.validationRelationshipExceedsMaximumCount))
            #expect(codes.contains(.managedObjectValidation), "the custom hook's error is reported with the others")
            #expect(error.detailedErrors.first { $0.code == .validationRelationshipLacksMinimumCount }?.affectedObjectIDs == [empty.objectID])
            #expect(error.detailedErrors.first { $0.code == .validationRelationshipExceedsMaximumCount }?.validationKey == "members")
            #expect(error.message.contains("nobody is not a name"))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func saveAppliesDeleteRulesWithoutProcessPendingChanges() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 3)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[2]  // 3 ingredients
            stack.context.delete(recipe)
            try stack.context.save()
        }
        let connection = try Connection(path: url.path, mode: .readOnly)
        #expect(try connection.scalar("SELECT count(*) FROM ZINGREDIENT WHERE ZRECIPE = 3 OR ZRECIPE IS NULL") == .integer(0), "cascade")
        #expect(try connection.scalar("SELECT count(*) FROM ZINGREDIENT") == .integer(3))
    }

    @Test func contextsHaveNoUndoManagerUnlessGivenOneAndUndoRemovesAnInsert() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        #expect(NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType).undoManager == nil)
        try stack.context.performAndWait {
            #expect(stack.context.undoManager == nil)
            let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            chef.setValue("No undo", forKey: "name")
            stack.context.processPendingChanges()
            try stack.context.save()

            stack.context.undoManager = UndoManager()
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            added.setValue("Undone", forKey: "name")
            stack.context.processPendingChanges()
            #expect(stack.context.insertedObjects == [added])
            stack.context.undo()
            #expect(stack.context.insertedObjects.isEmpty && !stack.context.hasChanges)
            #expect(stack.context.registeredObject(for: added.objectID) == nil, "undoing an insert removes the object")
            try stack.context.save()
        }
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT ZNAME FROM ZCHEF ORDER BY Z_PK").map { $0[0] }
                == [.text("Chef 1"), .text("No undo")])
    }

    /// A grandchild reads each object from the nearest level that holds it: the child's unsaved value over the
    /// root's, the root's over the store's, without a store read when a parent has it.
    @Test func objectWithPullsThroughTheNearestLevel() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let root = stack.context
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        let grandchild = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        grandchild.parent = child
        let ids = try root.performAndWait {
            let chefs = try root.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            chefs[0].setValue("Root 1", forKey: "name")
            chefs[1].setValue("Root 2", forKey: "name")
            return chefs.map(\.objectID)
        }
        let kept = child.performAndWait {
            let first = child.object(with: ids[0])
            #expect(first.value(forKey: "name") as? String == "Root 1")
            first.setValue("Child 1", forKey: "name")
            return UncheckedBox(first)
        }
        let misses = stack.coordinator.statistics.snapshot.rowCacheMisses
        grandchild.performAndWait {
            #expect(grandchild.object(with: ids[0]).value(forKey: "name") as? String == "Child 1", "the child is nearest")
            #expect(grandchild.object(with: ids[1]).value(forKey: "name") as? String == "Root 2", "the child does not hold it; the root does")
        }
        #expect(stack.coordinator.statistics.snapshot.rowCacheMisses == misses, "no store read")
        try grandchild.performAndWait {
            #expect(grandchild.object(with: ids[2]).value(forKey: "name") as? String == "Chef 3", "no level holds it: the store")
            // A grandchild's fetch sees both levels' unsaved changes.
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.predicate = Predicates.NSPredicate(format: "name BEGINSWITH %@", "R")
            let fetched = try grandchild.fetch(request).map(\.objectID)
            #expect(fetched == [ids[1]])
        }
        _ = kept
    }

    @Test func mainQueueContextsWorkThroughPerform() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 1)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [:])
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let done = DispatchSemaphore(value: 0)
        let result = Failures()
        context.perform {
            do {
                dispatchPrecondition(condition: .onQueue(.main))
                let chefs = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
                chefs[0].setValue("On main", forKey: "name")
                try context.save()
            } catch {
                result.record("\(error)")
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "the main queue never ran the block")
        #expect(result.all.isEmpty, "\(result.all)")
        #expect(try Connection(path: url.path, mode: .readOnly).scalar("SELECT ZNAME FROM ZCHEF WHERE Z_PK = 1") == .text("On main"))
    }

    @Test func objectIDsCrossQueuesAndManagedObjectsStay() {
        func sendable<T: Sendable>(_: T.Type) -> Bool { true }
        // Compiles only because NSManagedObjectID is Sendable; NSManagedObject's Sendable conformance is
        // declared unavailable, so `sendable(NSManagedObject.self)` would not compile.
        #expect(sendable(NSManagedObjectID.self))
    }

    @Test func aConflictLeavesTheFilesByteIdentical() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let first = try TestStack(storeURL: url, model: model, options: [:]), second = try TestStack(storeURL: url, model: model, options: [:])
        let stale = try second.context.performAndWait {
            let chef = try second.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0]
            _ = chef.value(forKey: "name")
            return UncheckedBox(chef)
        }
        try first.context.performAndWait {
            try first.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0].setValue("First", forKey: "name")
            try first.context.save()
        }
        let files = [url.path, url.path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        try second.context.performAndWait {
            stale.value.setValue("Second", forKey: "name")
            let inserted = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: second.context)
            inserted.setValue("Also refused", forKey: "name")
            let error = try #require(throws: CoreDataError.self) { try second.context.save() }
            #expect(error.code == .managedObjectMerge)
        }
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before, "nothing of the refused save was written")
    }

    /// An Apple-written store edited through the API (not the command line): its schema, metadata, `Z_OPT`s and
    /// `Z_MAX`es stay as Apple's framework would leave them.
    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
    func appleStoreEditedThroughTheAPIKeepsApplesFormat() throws {
        let url = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let model = try #require(try SQLiteStoreFile(path: url.path).cachedModel())
        let before = try Connection(path: url.path, mode: .readOnly)
        let schema = try before.schemaStatements(), metadata = try before.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA")
        let maxes = try before.query("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        let version = try #require(try before.scalar("SELECT Z_OPT FROM ZCAR WHERE ZNUMBERPLATE = '170'")?.int64Value)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Car")
            request.predicate = Predicates.NSPredicate(format: "numberPlate == %@", "170")
            let car = try #require(try stack.context.fetch(request).first)
            car.setValue("Tesla", forKey: "maker")
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: stack.context)
            person.setValue("Grace", forKey: "firstName")
            person.setValue("Hopper", forKey: "lastName")
            person.setValue(UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")!, forKey: "id")
            person.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "updatedAt")
            try stack.context.save()
            #expect(person.objectID.primaryKey == 21, "Z_MAX was 20")
        }
        let after = try Connection(path: url.path, mode: .readOnly)
        #expect(try after.schemaStatements() == schema)
        #expect(try after.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA") == metadata)
        #expect(try after.query("SELECT ZMAKER, Z_OPT FROM ZCAR WHERE ZNUMBERPLATE = '170'") == [[.text("Tesla"), .integer(version + 1)]])
        let personMax = maxes.first { $0[0] == .text("Person") }
        #expect(personMax?[1] == .integer(20))
        #expect(try after.query("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") == [[.integer(21)]])
        #expect(try after.integrityCheck() == ["ok"])
        // The store reopens with the model its cache carries: the metadata's hashes still match.
        _ = try TestStack(storeURL: url, model: model)
    }
}
