import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// `includesPendingChanges` (true by default): a fetch sees the context's own unsaved inserts, deletions and
/// changes, as Apple's documentation of `NSFetchRequest.includesPendingChanges` describes, for object and object-ID
/// results; dictionary results reflect the store only.
struct PendingChangesFetchTests {
    /// Chef 1 renamed "Zed", Chef 2 deleted, "Anna" inserted, none of it saved.
    private func editedStack(chefs: Int = 3) throws -> TestStack {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: chefs, recipes: 3)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let chefs = try stack.context.fetch(request)
            chefs[0].setValue("Zed", forKey: "name")
            stack.context.delete(chefs[1])
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            added.setValue("Anna", forKey: "name")
        }
        return stack
    }

    private func names(_ objects: [NSManagedObject]) -> [String?] { objects.map { $0.value(forKey: "name") as? String } }

    @Test func aRootContextsFetchIncludesItsUnsavedInsertsDeletionsAndChanges() throws {
        let stack = try editedStack()
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            #expect(try names(stack.context.fetch(request)) == ["Anna", "Chef 3", "Zed"])
            request.predicate = Predicates.NSPredicate(format: "name BEGINSWITH %@", "Z")
            #expect(try names(stack.context.fetch(request)) == ["Zed"])
            // The renamed object no longer matches its stored name.
            request.predicate = Predicates.NSPredicate(format: "name == %@", "Chef 1")
            #expect(try stack.context.fetch(request).isEmpty)
            request.predicate = Predicates.NSPredicate(format: "name == %@", "Anna")
            let anna = try stack.context.fetch(request)
            #expect(anna.count == 1 && anna.first?.objectID.isTemporaryID == true)
        }
    }

    @Test func limitsAndOffsetsApplyToTheMergedResults() throws {
        let stack = try editedStack(chefs: 5)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            // Merged: Anna, Chef 3, Chef 4, Chef 5, Zed.
            request.fetchLimit = 2
            #expect(try names(stack.context.fetch(request)) == ["Anna", "Chef 3"])
            request.fetchOffset = 3
            #expect(try names(stack.context.fetch(request)) == ["Chef 5", "Zed"])
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: false)]
            request.fetchOffset = 0
            request.fetchLimit = 1
            #expect(try names(stack.context.fetch(request)) == ["Zed"])
        }
    }

    @Test func withoutSortDescriptorsSavedObjectsKeepPrimaryKeyOrderAndInsertedOnesFollow() throws {
        let stack = try editedStack(chefs: 5)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            #expect(try names(stack.context.fetch(request)) == ["Zed", "Chef 3", "Chef 4", "Chef 5", "Anna"])
            for index in 0..<40 {
                NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context).setValue("Bulk \(index + 10)", forKey: "name")
            }
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            request.fetchOffset = 1
            request.fetchLimit = 3
            #expect(try names(stack.context.fetch(request)) == ["Bulk 10", "Bulk 11", "Bulk 12"])
            request.fetchOffset = 41
            #expect(try names(stack.context.fetch(request)) == ["Chef 3", "Chef 4", "Chef 5"])
            #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Chef")) == 45)
        }
    }

    @Test func objectIDResultsAndCountsIncludePendingChanges() throws {
        let stack = try editedStack()
        try stack.context.performAndWait {
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Chef")
            ids.resultType = .managedObjectIDResultType
            let fetched = try stack.context.fetch(ids)
            #expect(fetched.count == 3)
            #expect(fetched.filter(\.isTemporaryID).count == 1)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            #expect(try stack.context.count(for: request) == 3)
            request.predicate = Predicates.NSPredicate(format: "name BEGINSWITH %@", "Chef")
            #expect(try stack.context.count(for: request) == 1)
            // Counted by its current name, not the stored one.
            request.predicate = Predicates.NSPredicate(format: "name BEGINSWITH %@", "Z")
            #expect(try stack.context.count(for: request) == 1)
            request.predicate = Predicates.NSPredicate(format: "name == %@ OR name == %@", "Chef 2", "Anna")
            #expect(try stack.context.count(for: request) == 1)
        }
    }

    @Test func withoutPendingChangesOrForDictionariesTheStoreAnswers() throws {
        let stack = try editedStack()
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.includesPendingChanges = false
            let objects = try stack.context.fetch(request)
            #expect(objects.count == 3)
            #expect(!objects.contains { $0.objectID.isTemporaryID })
            #expect(try stack.context.count(for: request) == 3)
            let rows = NSFetchRequest<NSDictionary>(entityName: "Chef")
            rows.resultType = .dictionaryResultType
            rows.propertiesToFetch = ["name"]
            rows.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            #expect(try stack.context.fetch(rows).map { $0["name"] as? String } == ["Chef 1", "Chef 2", "Chef 3"])
        }
    }

    @Test func aChildContextsFetchIncludesItsOwnUnsavedObjects() throws {
        let stack = try editedStack()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        try child.performAndWait { () throws in
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: child)
            added.setValue("Bea", forKey: "name")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            #expect(try names(child.fetch(request)) == ["Anna", "Bea", "Chef 3", "Zed"])
        }
    }
}
