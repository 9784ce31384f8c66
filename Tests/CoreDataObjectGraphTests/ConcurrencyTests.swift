import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Synchronization
import Testing

/// Several private-queue contexts saving and fetching at once, on one coordinator and on two coordinators sharing
/// a WAL file: nothing crashes or deadlocks, no update is lost, and readers only ever see whole saves.
///
/// Each writer's save inserts `chefsPerSave` chefs named `w<writer>-<save>-<k>`, so a reader that counts a number
/// of them that is not a multiple of `chefsPerSave` has seen half a transaction. Every writer also bumps its own
/// chef's `recipeCount` (no contention) and a shared chef's `recipeCount` (contention, retried on optimistic-locking
/// conflicts), so the final counters and `Z_OPT`s tell whether an update was lost.
@Suite(.serialized)
struct ConcurrencyTests {
    static let chefsPerSave = 3

    @Test func contextsOnOneCoordinatorSaveAndFetchConcurrently() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 7, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let writers = 6, saves = 50
        let run = StressRun(url: url, writers: writers, saves: saves)
        run.start(coordinators: [stack.coordinator], readersPerCoordinator: 2)
        try run.finish()
    }

    @Test func twoCoordinatorsOnOneWALFileSaveConcurrently() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 7, recipes: 1)
        #expect(try Connection(path: url.path, mode: .readOnly).scalar("PRAGMA journal_mode") == .text("wal"))
        let first = try TestStack(storeURL: url, model: model, options: [:])
        let second = try TestStack(storeURL: url, model: model, options: [:])
        let run = StressRun(url: url, writers: 6, saves: 40)
        run.start(coordinators: [first.coordinator, second.coordinator], readersPerCoordinator: 1)
        try run.finish()
    }

    @Test func mergingDidSaveNotificationsWhileOthersSave() throws {
        // Every writer merges every other writer's did-save into its own context on its own queue, as apps do.
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 4, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let contexts = (0..<4).map { _ in
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = stack.coordinator
            return context
        }
        let observers = contexts.map { context in
            NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil) { note in
                guard let sender = note.object as? NSManagedObjectContext, sender !== context,
                      sender.persistentStoreCoordinator === context.persistentStoreCoordinator else { return }
                let box = UncheckedBox(note)
                context.perform { context.mergeChanges(fromContextDidSave: box.value) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let failures = Failures()
        let kept = UncheckedBox(KeptObjects())
        let group = DispatchGroup()
        for (index, context) in contexts.enumerated() {
            group.enter()
            context.perform {
                defer { group.leave() }
                do {
                    // Everyone keeps the chefs registered, so merges have objects to refresh.
                    let chefs = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
                    kept.value.keep(chefs)
                    let mine = chefs.first { $0.objectID.primaryKey == Int64(index + 1) }!
                    for save in 1...40 {
                        mine.setValue(Int32(save), forKey: "recipeCount")
                        try context.save()
                        for chef in chefs { _ = chef.value(forKey: "recipeCount") }
                    }
                } catch {
                    failures.record("writer \(index): \(error)")
                }
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success, "the writers did not finish: a deadlock?")
        // Let the last merges run before reading.
        for context in contexts { context.performAndWait {} }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let connection = try Connection(path: url.path, mode: .readOnly)
        #expect(try connection.query("SELECT ZRECIPECOUNT, Z_OPT FROM ZCHEF WHERE Z_PK <= 4 ORDER BY Z_PK")
            == Array(repeating: [.integer(40), .integer(41)], count: 4))
        #expect(try connection.integrityCheck() == ["ok"])
        // Merges leave every context with the saved values.
        for context in contexts {
            context.performAndWait {
                for pk in 1...4 {
                    let chef = context.registeredObjects.first { $0.objectID.primaryKey == Int64(pk) }
                    #expect(chef?.value(forKey: "recipeCount") as? Int64 == 40)
                }
            }
        }
    }
}

/// A writer-and-reader stress run over one store file (see `ConcurrencyTests`).
final class StressRun: @unchecked Sendable {
    let url: URL
    let writers: Int
    let saves: Int
    let failures = Failures()
    let writersDone = Atomic<Bool>(false)
    let sharedIncrements = Atomic<Int>(0)
    let conflicts = Atomic<Int>(0)
    let readerPasses = Atomic<Int>(0)
    private let writerGroup = DispatchGroup()
    private let readerGroup = DispatchGroup()
    /// Pre-existing chefs: 1...writers belong to one writer each; `writers + 1` is shared by all.
    var sharedKey: Int64 { Int64(writers + 1) }

    init(url: URL, writers: Int, saves: Int) {
        self.url = url
        self.writers = writers
        self.saves = saves
    }

    /// Starts the writers, spread over `coordinators`, and `readersPerCoordinator` readers on each.
    func start(coordinators: [NSPersistentStoreCoordinator], readersPerCoordinator: Int) {
        for writer in 0..<writers {
            let context = Self.context(on: coordinators[writer % coordinators.count])
            writerGroup.enter()
            context.perform { [self] in
                defer { writerGroup.leave() }
                write(writer, in: context)
            }
        }
        for (index, coordinator) in coordinators.enumerated() {
            for reader in 0..<readersPerCoordinator {
                let context = Self.context(on: coordinator)
                readerGroup.enter()
                context.perform { [self] in
                    defer { readerGroup.leave() }
                    read(in: context, name: "reader \(index).\(reader)")
                }
            }
        }
    }

    /// Waits for everyone and checks the store.
    func finish() throws {
        let finished = writerGroup.wait(timeout: .now() + 300) == .success
        writersDone.store(true, ordering: .sequentiallyConsistent)
        let readersFinished = readerGroup.wait(timeout: .now() + 60) == .success
        #expect(finished && readersFinished, "the contexts did not finish: a deadlock?")
        guard finished && readersFinished else { return }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(20))")
        #expect(readerPasses.load(ordering: .relaxed) > 0, "the readers never ran")

        let connection = try Connection(path: url.path, mode: .readOnly)
        let inserted = writers * saves * ConcurrencyTests.chefsPerSave
        #expect(try connection.scalar("SELECT count(*) FROM ZCHEF WHERE ZNAME LIKE 'w%'") == .integer(Int64(inserted)))
        #expect(try connection.scalar("SELECT count(DISTINCT ZNAME) FROM ZCHEF WHERE ZNAME LIKE 'w%'") == .integer(Int64(inserted)))
        #expect(try connection.scalar("SELECT count(*) FROM ZCHEF WHERE ZNAME LIKE 'w%' AND Z_OPT <> 1") == .integer(0))
        let total = Int64(writers + 1 + inserted)
        #expect(try connection.scalar("SELECT max(Z_PK) FROM ZCHEF") == .integer(total))
        #expect(try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Chef'") == .integer(total))
        // Every writer's own chef: one update per save, none lost.
        let own = try connection.query("SELECT ZRECIPECOUNT, Z_OPT FROM ZCHEF WHERE Z_PK <= ? ORDER BY Z_PK", arguments: [.integer(Int64(writers))])
        #expect(own == Array(repeating: [.integer(Int64(saves)), .integer(Int64(saves + 1))], count: writers), "\(own)")
        // The shared chef: every successful increment counted once.
        let increments = Int64(sharedIncrements.load(ordering: .relaxed))
        #expect(increments == Int64(writers * saves))
        #expect(try connection.query("SELECT ZRECIPECOUNT, Z_OPT FROM ZCHEF WHERE Z_PK = ?", arguments: [.integer(sharedKey)])
            == [[.integer(increments), .integer(increments + 1)]])
        #expect(try connection.integrityCheck() == ["ok"])
    }

    private static func context(on coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    private func write(_ writer: Int, in context: NSManagedObjectContext) {
        do {
            var mine = try chef(Int64(writer + 1), in: context)
            for save in 0..<saves {
                for k in 0..<ConcurrencyTests.chefsPerSave {
                    let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: context)
                    chef.setValue("w\(writer)-\(save)-\(k)", forKey: "name")
                }
                mine.setValue(Int32(save + 1), forKey: "recipeCount")
                try context.save()
                try incrementShared(in: context, writer: writer)
                if save % 10 == 9 {
                    // Forgetting everything now and then makes the next saves fault their objects in again.
                    context.reset()
                    mine = try chef(Int64(writer + 1), in: context)
                }
            }
        } catch {
            failures.record("writer \(writer): \(error)")
        }
    }

    private func chef(_ key: Int64, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
        request.predicate = Predicates.NSPredicate(format: "name == %@", "Chef \(key)")
        guard let chef = try context.fetch(request).first else { throw CoreDataError(.persistentStoreOperation, "no chef \(key)") }
        return chef
    }

    /// Read, add one, save; on an optimistic-locking conflict, throw the change away, re-read and try again.
    private func incrementShared(in context: NSManagedObjectContext, writer: Int) throws {
        let shared = try chef(sharedKey, in: context)
        for _ in 0..<10_000 {
            context.refresh(shared, mergeChanges: true)
            let value = shared.value(forKey: "recipeCount") as? Int64 ?? -1
            shared.setValue(Int32(value + 1), forKey: "recipeCount")
            do {
                try context.save()
                sharedIncrements.add(1, ordering: .relaxed)
                return
            } catch let error as CoreDataError where error.code == .managedObjectMerge {
                conflicts.add(1, ordering: .relaxed)
                context.rollback()
            }
        }
        failures.record("writer \(writer): the shared increment kept conflicting")
    }

    private func read(in context: NSManagedObjectContext, name: String) {
        var lastCount = 0
        var lastOwn: [Int64: Int64] = [:]
        repeat {
            let writersFinished = writersDone.load(ordering: .sequentiallyConsistent)
            do {
                context.reset()
                let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
                request.predicate = Predicates.NSPredicate(format: "name BEGINSWITH %@", "w")
                let counted = try context.count(for: request)
                request.returnsObjectsAsFaults = false
                let fetched = try context.fetch(request)
                let names = fetched.compactMap { $0.value(forKey: "name") as? String }
                check(counted % ConcurrencyTests.chefsPerSave == 0, "\(name) counted \(counted) chefs: half a save")
                check(counted >= lastCount, "\(name) counted \(counted) chefs after \(lastCount)")
                check(names.count >= counted, "\(name) fetched \(names.count) chefs after counting \(counted)")
                check(names.count % ConcurrencyTests.chefsPerSave == 0, "\(name) fetched \(names.count) chefs: half a save")
                let bySave = Dictionary(grouping: names) { String($0[..<$0.lastIndex(of: "-")!]) }
                for (save, members) in bySave where members.count != ConcurrencyTests.chefsPerSave {
                    check(false, "\(name) saw \(members.count) chefs of save \(save)")
                }
                lastCount = names.count
                let own = NSFetchRequest<NSManagedObject>(entityName: "Chef")
                own.predicate = Predicates.NSPredicate(format: "name BEGINSWITH %@", "Chef ")
                own.returnsObjectsAsFaults = false
                for chef in try context.fetch(own) {
                    let key = chef.objectID.primaryKey, value = chef.value(forKey: "recipeCount") as? Int64 ?? -1
                    check(value >= lastOwn[key, default: 0], "\(name): chef \(key) went back from \(lastOwn[key, default: 0]) to \(value)")
                    lastOwn[key] = value
                }
                readerPasses.add(1, ordering: .relaxed)
            } catch {
                failures.record("\(name): \(error)")
                return
            }
            if writersFinished { return }
        } while true
    }

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { failures.record(message()) }
    }
}

/// Failures recorded on any queue, checked on the test's.
final class Failures: Sendable {
    private let messages = Mutex<[String]>([])
    func record(_ message: String) { messages.withLock { $0.append(message) } }
    var all: [String] { messages.withLock { $0 } }
}

/// Keeps objects alive (contexts hold unchanged objects weakly) until the test ends.
final class KeptObjects: @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [NSManagedObject] = []
    func keep(_ more: [NSManagedObject]) { lock.withLock { objects += more } }
}

/// Carries a value that is only used on one queue at a time across a `@Sendable` boundary.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
