import CoreDataModel
import CoreDataObjectGraph
import Foundation

/// Inserts a sample's objects through a context in batches, as the seeds advise for imports: a save every
/// `batchSize` inserted objects, then `reset()`, so the context never holds more than one batch and memory stays
/// flat however large the sample is.
///
/// Objects that later batches point to (chefs, tags, regions…) are kept as object IDs, which stay valid across
/// resets, and turned back into objects with `object(_:)`.
///
/// Generators hand unordered to-many relationships an array rather than a `Set`: the library accepts both, and an
/// array's order is the generator's, while a `Set`'s changes with every process (Swift seeds its hashing per run).
/// The order decides which object changes first and so the order of the rows' updates, and with it the exact bytes
/// of the file; the relationship's contents are the same either way.
final class SampleStoreWriter {
    let context: NSManagedObjectContext
    let batchSize: Int
    private var pendingObjects = 0
    private(set) var savedBatches = 0
    /// Units ended so far, and the bar they advance (a sample's scale counts its units).
    private var units = 0
    private let progress: (bar: ProgressLine, total: Int)?

    init(context: NSManagedObjectContext, batchSize: Int = 1_000, progress: (bar: ProgressLine, total: Int)? = nil) {
        self.context = context
        self.batchSize = batchSize
        self.progress = progress
    }

    /// A new object of `entityName`, counted towards the current batch.
    func insert(_ entityName: String) -> NSManagedObject {
        pendingObjects += 1
        return NSEntityDescription.insertNewObject(forEntityName: entityName, into: context)
    }

    /// The object for an ID saved in an earlier batch (a fault until its values are needed).
    func object(_ id: NSManagedObjectID) -> NSManagedObject {
        context.object(with: id)
    }

    /// Saves and resets when the batch is full. Call it between units (a recipe with its ingredients), never in the
    /// middle of one, so each save holds whole units.
    func endUnit() throws {
        units += 1
        if pendingObjects >= batchSize {
            try saveAndReset()
            progress.map { $0.bar.show(units, $0.total) }
        }
    }

    /// Saves what is pending without resetting, so the caller can read the permanent IDs of objects it keeps.
    func save() throws {
        guard context.hasChanges else { return }
        try context.save()
        savedBatches += 1
    }

    /// Saves what is pending and empties the context; objects held before this call are no longer usable.
    func saveAndReset() throws {
        try save()
        context.reset()
        pendingObjects = 0
    }
}
