import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Synchronization
import Testing

/// The browser's path under concurrency (issue 16, item 3; issue 17, item 2): a context scrolls a batch-faulting array
/// while private-queue contexts import and save on the same coordinator, and child contexts save into a parent that
/// saves to the store. Run clean under ThreadSanitizer by `make test-sanitize`; in a plain build they check that every
/// batch reads whole rows and that no save is lost.
@Suite(.serialized)
struct BatchFaultingConcurrencyTests {
    static let initialWords = 3_000

    /// The words store of `BatchFaultingArrayTests`, with `Z_MAX` raised past its rows so that saves can insert.
    static func wordsStore(rows: Int) throws -> (URL, NSManagedObjectModel) {
        let (url, model) = try BatchFaultingArrayTests.wordsStore(rows: rows)
        try Connection(path: url.path, mode: .readWrite).execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows)")
        return (url, model)
    }

    /// Scrolls the way the browser does: page down batch by batch, jump to the end, jump into the middle, back to the
    /// top; every object on the way must be a whole word row.
    private static func scroll(_ array: BatchFaultingArray, failures: Failures) {
        let count = array.count
        guard count >= initialWords else { return failures.record("the count \(count) lost rows") }
        var positions = Array(stride(from: 0, to: min(count, 600), by: 13))
        positions += [count - 1, count / 2, count / 2 + 51, 7]
        for position in positions {
            let word = array[position]
            guard let text = word.value(forKey: "text") as? String, text.hasPrefix("w"),
                  let length = word.value(forKey: "length") as? Int, (0...16).contains(length) else {
                return failures.record("row \(position) is not a whole word: \(word)")
            }
        }
    }

    @Test func scrollingABatchFaultingArrayWhileAnotherContextSaves() throws {
        let (url, model) = try Self.wordsStore(rows: Self.initialWords)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let importer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        importer.persistentStoreCoordinator = stack.coordinator
        let failures = Failures()
        let importing = Atomic<Bool>(true)
        let saves = 30, wordsPerSave = 20
        let group = DispatchGroup()
        group.enter()
        importer.perform {
            defer { importing.store(false, ordering: .releasing); group.leave() }
            do {
                for save in 0..<saves {
                    for index in 0..<wordsPerSave {
                        let word = NSManagedObject(entity: model.entitiesByName["Word"]!, insertInto: importer)
                        word.setValue(String(format: "w9%03d%03d", save, index), forKey: "text")
                        word.setValue(Int16(index % 17), forKey: "length")
                    }
                    try importer.save()
                    importer.reset()
                }
            } catch {
                failures.record("import: \(error)")
            }
        }
        group.enter()
        DispatchQueue.global().async {
            defer { group.leave() }
            var rounds = 0
            // At least a few rounds, and on until the import ends, so the scrolling overlaps every save.
            while rounds < 3 || importing.load(ordering: .acquiring) {
                rounds += 1
                stack.context.performAndWait {
                    do {
                        let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
                        request.fetchBatchSize = 50
                        request.sortDescriptors = [NSSortDescriptor(key: rounds % 2 == 0 ? "text" : "length", ascending: true)]
                        Self.scroll(try stack.context.fetchBatched(request), failures: failures)
                    } catch {
                        failures.record("scroll: \(error)")
                    }
                    stack.context.reset()
                }
            }
        }
        #expect(group.wait(timeout: .now() + 300) == .success, "the importer and the scroller did not finish: a deadlock?")
        #expect(failures.all.isEmpty, "\(failures.all)")
        let connection = try Connection(path: url.path, mode: .readOnly)
        #expect(try connection.scalar("SELECT count(*) FROM ZWORD") == .integer(Int64(Self.initialWords + saves * wordsPerSave)))
        #expect(try connection.integrityCheck() == ["ok"])
    }

    @Test func childContextsSaveIntoAParentThatSavesToTheStore() throws {
        let (url, model) = try Self.wordsStore(rows: 10)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let parent = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        parent.persistentStoreCoordinator = stack.coordinator
        let children = 4, savesPerChild = 15
        let failures = Failures()
        let group = DispatchGroup()
        for child in 0..<children {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.parent = parent
            group.enter()
            context.perform {
                defer { group.leave() }
                do {
                    for save in 0..<savesPerChild {
                        let word = NSManagedObject(entity: model.entitiesByName["Word"]!, insertInto: context)
                        word.setValue("c\(child)-\(save)", forKey: "text")
                        word.setValue(Int16(child), forKey: "length")
                        try context.save()
                        // The parent pushes to the store on its own queue while other children keep saving into it.
                        parent.perform {
                            do { try parent.save() } catch { failures.record("parent save: \(error)") }
                        }
                    }
                } catch {
                    failures.record("child \(child): \(error)")
                }
            }
        }
        #expect(group.wait(timeout: .now() + 300) == .success, "the children did not finish: a deadlock?")
        try parent.performAndWait { try parent.save() }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let connection = try Connection(path: url.path, mode: .readOnly)
        #expect(try connection.scalar("SELECT count(*) FROM ZWORD WHERE ZTEXT LIKE 'c%'") == .integer(Int64(children * savesPerChild)))
        #expect(try connection.integrityCheck() == ["ok"])
    }
}
