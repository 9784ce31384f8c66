import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess
import UndoManagement

/// The store a browser works on: the opened store with its main context (where the user's edits wait until they
/// are written), the background counter, the change watcher, and what is known about each entity.
///
/// The context is a private-queue context; the browser reaches it only through `perform`, one level deep (never
/// from inside another context's `performAndWait`, so a child's save into it cannot deadlock).
public final class BrowserSession {
    package let options: BrowserOptions
    package private(set) var store: StoreSession
    /// Whether edits are allowed (the store is opened read-write).
    package private(set) var isEditable: Bool
    /// Why editing was asked for but the store opened read-only (it records persistent history, say), for the
    /// message line; nil otherwise.
    package let editRefusal: String?
    /// Rows per entity, subentities included, once the background counter has them.
    package private(set) var entityCounts: [String: Int] = [:]
    package let counter: BackgroundCounter
    let watcher: StoreChangeWatcher?
    var entityCountTicket: Int?
    /// Background jobs deciding text columns' byte order (``decideTextOrder(of:)``), whose outcomes are not counts.
    private var textOrderTickets: Set<Int> = []
    /// How objects are named: each entity's display key (issue 21), with the user's `:label` choices for this store.
    package private(set) var labels: ObjectLabel
    let savedLabels: PerStoreSettings
    /// The column sets chosen per entity (`:columns`, `c`, `-`), comma-separated, remembered for this store.
    let savedColumns: PerStoreSettings

    public init(options: BrowserOptions) throws {
        self.options = options
        do {
            self.store = try StoreSession(storePath: options.storePath, modelPath: options.modelPath,
                                          readOnly: !options.allowsEditing, kind: options.storeKind)
            self.isEditable = options.allowsEditing
            self.editRefusal = nil
        } catch let error as StoreAccessError where error.refusesWriting {
            // As Apple's Core Data does with such a store: still readable, forced read-only.
            self.store = try StoreSession(storePath: options.storePath, modelPath: options.modelPath, readOnly: true, kind: options.storeKind)
            self.isEditable = false
            self.editRefusal = error.message.replacingOccurrences(of: ": it cannot be edited", with: ": opened read-only")
        }
        self.savedLabels = PerStoreSettings(directory: options.stateDirectory, file: "labels", storePath: store.path)
        self.savedColumns = PerStoreSettings(directory: options.stateDirectory, file: "columns", storePath: store.path)
        self.labels = ObjectLabel(overrides: savedLabels.values())
        if store.storeType == NSSQLiteStoreType, options.storeKind != .memory {
            self.counter = try BackgroundCounter(storePath: store.path, model: store.model)
            self.watcher = try? StoreChangeWatcher(storePath: store.path)
        } else {
            // An atomic store's objects are in memory: counted there, and its file is read once (no change watching).
            self.counter = BackgroundCounter(coordinator: store.coordinator)
            self.watcher = nil
        }
        configureContext()
        entityCountTicket = counter.start(.entityCounts)
    }

    package var model: NSManagedObjectModel { store.model }

    /// Labels the objects of `entity` (and its subentities) by `key` from now on, remembered for this store.
    package func setLabel(_ key: String, for entity: NSEntityDescription) throws {
        try ObjectLabel.validate(key, for: entity)
        labels.overrides[entity.entityName] = key
        try savedLabels.save(key, for: entity.entityName)
    }
    package var context: NSManagedObjectContext { store.context }
    package var storeName: String { URL(fileURLWithPath: options.storePath).lastPathComponent }

    /// Runs `body` on the main context's queue.
    package func perform<T>(_ body: () throws -> T) rethrows -> T {
        try store.context.performAndWait(body)
    }

    /// Entities in the order the entity pane lists them: roots alphabetically, each followed by its subentities,
    /// with their depth in the inheritance tree.
    package var entityTree: [(entity: NSEntityDescription, depth: Int)] {
        var rows: [(NSEntityDescription, Int)] = []
        func visit(_ entity: NSEntityDescription, depth: Int) {
            rows.append((entity, depth))
            for child in entity.subentities.sorted(by: { $0.entityName < $1.entityName }) { visit(child, depth: depth + 1) }
        }
        for root in model.entities.filter({ $0.superentity == nil }).sorted(by: { $0.entityName < $1.entityName }) {
            visit(root, depth: 0)
        }
        return rows
    }

    /// Reopens the store read-write (`:edit`) or read-only (`:readonly`) with a new main context. The old
    /// context is dropped: callers rebuild their tables, and must not hold unsaved changes.
    package func reopen(editable: Bool) throws {
        guard editable != isEditable else { return }
        store = try StoreSession(storePath: options.storePath, modelPath: options.modelPath, readOnly: !editable, kind: options.storeKind)
        isEditable = editable
        configureContext()
    }

    /// Changes waiting in the main context, to be written with `save()`.
    package var pendingChangeCount: Int {
        perform { context.insertedObjects.count + context.updatedObjects.count + context.deletedObjects.count }
    }

    /// Writes the main context's changes to the store in one transaction.
    package func save() throws {
        try perform { try context.save() }
        watcher?.acknowledge()
        entityCountTicket = counter.start(.entityCounts)
    }

    /// Decides in the background, on the counter's connection, whether each text column of `entity` may be sorted
    /// by its bytes, so that the first sort of one does not read the whole column first (SQLite stores only; the
    /// store keeps the answers until the database changes, so asking again after that decides again).
    func decideTextOrder(of entity: NSEntityDescription) {
        guard counter.runsSQL, let store = store.coordinator.persistentStores.first as? NSSQLiteStore else { return }
        textOrderTickets.insert(counter.start(.textOrder(store: store, entity: entity)))
    }

    /// Picks up finished background counts; returns the object counts of other jobs for the tables to adopt.
    func collectCounts() -> [(ticket: Int, outcome: BackgroundCounter.Outcome)] {
        var others: [(Int, BackgroundCounter.Outcome)] = []
        for finished in counter.takeFinished() {
            // A text-order decision failing (interrupted by Esc, say) only leaves the first sort to decide itself.
            if textOrderTickets.remove(finished.ticket) != nil { continue }
            if case .entityCounts(let counts) = finished.outcome {
                entityCounts = counts
                if finished.ticket == entityCountTicket { entityCountTicket = nil }
            } else {
                if finished.ticket == entityCountTicket { entityCountTicket = nil }
                others.append((finished.ticket, finished.outcome))
            }
        }
        return others
    }

    /// Whether a background count is running.
    package var isCounting: Bool { counter.isBusy }

    /// Waits until every background count started so far has finished (tests, orderly shutdown).
    package func waitForBackgroundWork() {
        counter.waitUntilIdle()
    }

    /// Re-counts every entity (after a refresh).
    func recountEntities() {
        entityCountTicket = counter.start(.entityCounts)
    }

    private func configureContext() {
        store.context.name = "browser"
        if isEditable {
            let undoManager = UndoManager()
            store.context.performAndWait { store.context.undoManager = undoManager }
        }
    }
}
