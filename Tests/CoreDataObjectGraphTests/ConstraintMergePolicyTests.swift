import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// The built-in merge policies on uniqueness conflicts: the duplicates become one object, the one whose row holds the
/// values, as an import that inserts objects by their unique key expects ("insert or update").
@Suite(.serialized)
struct ConstraintMergePolicyTests {
    /// `Account` (`email` unique, `name`) with to-many `posts`; `Post` (`title`) with to-one `author`.
    private static func model() -> NSManagedObjectModel {
        let account = NSEntityDescription(name: "Account")
        let post = NSEntityDescription(name: "Post")
        let posts = NSRelationshipDescription(name: "posts", destinationEntityName: "Post")
        posts.deleteRule = .cascadeDeleteRule
        let author = NSRelationshipDescription(name: "author", destinationEntityName: "Account")
        author.maxCount = 1
        author.deleteRule = .nullifyDeleteRule
        posts.inverseRelationshipName = "author"
        author.inverseRelationshipName = "posts"
        account.setProperties([NSAttributeDescription(name: "email", type: .stringAttributeType),
                               NSAttributeDescription(name: "name", type: .stringAttributeType), posts])
        account.uniquenessConstraints = [["email"]]
        post.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType), author])
        return NSManagedObjectModel(entities: [account, post])
    }

    private func context(_ policy: NSMergePolicy) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: try TemporaryDirectory.make().appendingPathComponent("Accounts.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.mergePolicy = policy
        return context
    }

    private func account(_ email: String, _ name: String?, posts titles: [String] = [], in context: NSManagedObjectContext) -> NSManagedObject {
        let account = NSEntityDescription.insertNewObject(forEntityName: "Account", into: context)
        account.setValue(email, forKey: "email")
        account.setValue(name, forKey: "name")
        for title in titles {
            let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: context)
            post.setValue(title, forKey: "title")
            post.setValue(account, forKey: "author")
        }
        return account
    }

    /// Rows as the store holds them, read by a fresh context: `[email: (name, post titles)]`.
    private func stored(_ context: NSManagedObjectContext) throws -> [String: (String?, Set<String>)] {
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = context.persistentStoreCoordinator
        return try reader.performAndWait {
            var rows: [String: (String?, Set<String>)] = [:]
            for account in try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Account")) {
                let titles = Set(account.mutableSetValue(forKey: "posts").allObjects.compactMap { $0.value(forKey: "title") as? String })
                rows[account.value(forKey: "email") as! String] = (account.value(forKey: "name") as? String, titles)
            }
            return rows
        }
    }

    /// Object trump: a new object with a saved row's key updates that row, which keeps its ID and its posts.
    @Test func objectTrumpUpdatesTheStoredObject() throws {
        let context = try context(NSMergeByPropertyObjectTrumpMergePolicy)
        try context.performAndWait {
            let saved = account("ada@example.com", "Ada", posts: ["Notes"], in: context)
            try context.save()
            let incoming = account("ada@example.com", "Ada Lovelace", posts: ["Letters"], in: context)
            try context.save()
            #expect(!saved.isDeleted && saved.managedObjectContext === context && !saved.objectID.isTemporaryID)
            #expect(saved.value(forKey: "name") as? String == "Ada Lovelace")
            #expect(incoming.isDeleted || incoming.managedObjectContext == nil, "the duplicate is gone")
            #expect(!context.hasChanges)
        }
        let rows = try stored(context)
        #expect(rows.count == 1)
        #expect(rows["ada@example.com"]?.0 == "Ada Lovelace")
        #expect(rows["ada@example.com"]?.1 == ["Notes", "Letters"], "the duplicate's posts join the survivor's")
    }

    /// Store trump: the saved row keeps its values; the duplicate's posts still join it.
    @Test func storeTrumpKeepsTheStoredValues() throws {
        let context = try context(NSMergeByPropertyStoreTrumpMergePolicy)
        try context.performAndWait {
            _ = account("ada@example.com", "Ada", in: context)
            try context.save()
            _ = account("ada@example.com", "Somebody else", posts: ["Letters"], in: context)
            try context.save()
        }
        let rows = try stored(context)
        #expect(rows.count == 1)
        #expect(rows["ada@example.com"]?.0 == "Ada")
        #expect(rows["ada@example.com"]?.1 == ["Letters"])
    }

    /// An import of many objects, some of them already stored: each stored one is updated in place.
    @Test func anImportUpdatesTheStoredObjectsAndInsertsTheRest() throws {
        let context = try context(NSMergeByPropertyObjectTrumpMergePolicy)
        let stored = [0, 250, 599]
        let savedIDs = try context.performAndWait {
            let saved = stored.map { account("user\($0)@example.com", "old", in: context) }
            try context.save()
            for index in 0..<600 { _ = account("user\(index)@example.com", "imported \(index)", in: context) }
            try context.save()
            #expect(saved.allSatisfy { !$0.isDeleted && ($0.value(forKey: "name") as? String)?.hasPrefix("imported") == true })
            return saved.map(\.objectID)
        }
        let rows = try self.stored(context)
        #expect(rows.count == 600)
        #expect(rows["user250@example.com"]?.0 == "imported 250")
        let names = try context.performAndWait {
            try savedIDs.map { try context.existingObject(with: $0).value(forKey: "name") as? String }
        }
        #expect(names == stored.map { "imported \($0)" }, "the stored objects kept their IDs")
    }

    /// Duplicates inserted together become one object; under object trump the later values win.
    @Test func duplicatesInsertedTogetherBecomeOne() throws {
        let context = try context(NSMergeByPropertyObjectTrumpMergePolicy)
        try context.performAndWait {
            _ = account("ada@example.com", "First", in: context)
            _ = account("ada@example.com", "Second", in: context)
            _ = account("bob@example.com", "Bob", in: context)
            try context.save()
        }
        let rows = try stored(context)
        #expect(rows.count == 2)
        #expect(rows["ada@example.com"]?.0 == "Second")
        #expect(rows["bob@example.com"]?.0 == "Bob")
    }
}
