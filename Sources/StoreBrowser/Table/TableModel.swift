import CoreDataModel
import Foundation
import CoreDataObjectGraph
import Predicates
import StoreAccess
import TerminalText

/// The scrolling object table of one query: a batch-faulting array underneath (only the batches on screen are
/// loaded, far ones are forgotten), the selected row and column, and column widths that grow to fit what has been
/// shown. Every call must run on the browser context's queue (`BrowserSession.perform`).
package final class TableModel {
    package let query: TableQuery
    package let columns: [TableColumn]
    package let batchSize: Int
    let results: BatchFaultingArray
    /// The selected row.
    package private(set) var selection = 0
    /// The first row on screen.
    package private(set) var top = 0
    /// The selected column (what `[`, `]` and `F` act on).
    package private(set) var currentColumn = 0
    /// The leftmost column on screen.
    package private(set) var firstVisibleColumn = 0
    /// Widths fitted to the header and to every value shown so far (they never shrink while scrolling, so columns do
    /// not jump).
    package private(set) var columnWidths: [Int]
    /// Rows on screen at the last layout.
    package private(set) var visibleRows = 1
    /// The number of objects, once the store counted them (in the background) or the last batch was reached.
    package var knownCount: Int? { results.countIfKnown.map { $0 + pendingInserts.count } }
    /// Rows known to exist so far: the end of the loaded batches.
    package private(set) var loadedEnd = 0
    /// The last store error while loading a batch, shown in the status line.
    package private(set) var loadError: String?
    /// The background count job for this table, while it runs.
    var countTicket: Int?
    /// Set while a job holds the store's connection (a sort, `G`): the table then reads only batches in memory and
    /// labels already read, and never waits for the coordinator's lock, so the screen keeps drawing.
    var avoidsStore = false
    /// Objects inserted in the browser's context and not written yet that belong in this table: they come first,
    /// marked, so a new object can be opened and fixed before `:w` (the store's batches do not hold them).
    package private(set) var pendingInserts: [NSManagedObject] = []

    static let maximumColumnWidth = 40

    /// How to-one values name their objects.
    package let labels: ObjectLabel
    /// Labels read for the to-one destinations shown so far; dropped when the context has unsaved changes, which
    /// may rename them.
    private var labelCache: [NSManagedObjectID: String] = [:]

    init(query: TableQuery, context: NSManagedObjectContext, batchSize: Int, labels: ObjectLabel = ObjectLabel()) throws {
        self.query = query
        self.labels = labels
        self.columns = query.columnKeys.map { TableColumn.columns(for: query.entity, keys: $0) } ?? TableColumn.columns(for: query.entity)
        self.batchSize = batchSize
        self.results = try context.fetchBatched(query.fetchRequest(batchSize: batchSize))
        self.columnWidths = columns.map { DisplayWidth.of($0.key) }
        // A table of zero columns still shows its rows' object IDs.
        syncPendingInserts(in: context)
    }

    /// Re-reads the context's pending inserts that belong in this table (of the entity or a subentity, matching
    /// the scope and filter); called after every command, since accepting, undoing or writing changes them.
    func syncPendingInserts(in context: NSManagedObjectContext) {
        if context.hasChanges { labelCache.removeAll() }
        let predicate = query.predicate
        let inserted = context.insertedObjects.filter { object in
            object.entity.isKind(of: query.entity) && (predicate?.evaluate(with: object) ?? true)
        }
        let sorted = inserted.sorted { $0.objectID.uriRepresentation().absoluteString < $1.objectID.uriRepresentation().absoluteString }
        guard sorted.map(\.objectID) != pendingInserts.map(\.objectID) else { return }
        pendingInserts = sorted
        clamp()
    }

    /// Rows the list may move over: the count when known, otherwise one batch past what is loaded, so that moving
    /// down loads the next batch.
    package var rowCount: Int { knownCount ?? (pendingInserts.count + loadedEnd + batchSize) }

    /// Records a count computed by the background counter.
    func adoptCount(_ count: Int) {
        results.assumeCount(count)
        clamp()
    }

    // MARK: Objects

    /// The object at `row`, loading its batch; nil past the end or when the store fails (`loadError` says why).
    package func object(at tableRow: Int) -> NSManagedObject? {
        guard tableRow >= 0 else { return nil }
        if let knownCount, tableRow >= knownCount { return nil }
        if tableRow < pendingInserts.count { return pendingInserts[tableRow] }
        let row = tableRow - pendingInserts.count
        let batch = row / batchSize
        if avoidsStore, !results.holdsBatch(batch) { return nil }
        do {
            let objects = try results.objects(inBatch: batch)
            loadError = nil
            if objects.count == batchSize { loadedEnd = max(loadedEnd, (batch + 1) * batchSize) }
            let offset = row - batch * batchSize
            return offset < objects.count ? objects[offset] : nil
        } catch {
            loadError = String(describing: error)
            return nil
        }
    }

    /// The selected object, if any.
    package var selectedObject: NSManagedObject? { object(at: selection) }

    /// Batches held in memory now.
    package var residentBatches: [Int] { results.residentBatches }

    /// Reads the labels of the to-one destinations of `objects` that are not known yet, one fetch per column and
    /// entity instead of one fault per destination (the screen's rows, an export's batch).
    func prefetchLabels(for objects: [NSManagedObject]) {
        guard !avoidsStore, let context = objects.first?.managedObjectContext else { return }
        for column in columns {
            guard case .toOne = column.kind else { continue }
            let missing = Set(objects.compactMap { $0.objectIDForToOne(column.key) }).filter { labelCache[$0] == nil && !$0.isTemporaryID }
            guard !missing.isEmpty, let found = try? labels.labels(for: Array(missing), in: context) else { continue }
            labelCache.merge(found) { _, new in new }
        }
    }

    /// The text of `column` for `object`, one line, not yet sanitised.
    package func text(of column: TableColumn, for object: NSManagedObject) -> String {
        switch column.kind {
        case .attribute:
            return ValueFormatting.text(object.propertyValue(forKey: column.key))
        case .toOne:
            guard let id = object.objectIDForToOne(column.key) else { return "" }
            if let label = labelCache[id] { return label }
            if avoidsStore { return "…" }
            guard let destination = object.value(forKey: column.key) as? NSManagedObject else { return "" }
            return labels.text(for: destination)
        case .entity:
            return object.entity.entityName
        case .keyPath:
            if avoidsStore { return "…" }
            let value = Predicates.NSExpression(forKeyPath: column.key).expressionValue(with: object, context: nil)
            if let destination = value as? NSManagedObject { return labels.text(for: destination) }
            return ValueFormatting.text(value)
        }
    }

    // MARK: Moving

    /// Moves the selection to `row`, clamped to the rows there are, and scrolls it into view.
    package func select(row: Int) {
        selection = max(0, row)
        if knownCount == nil, selection - pendingInserts.count >= loadedEnd {
            // Touch the row so its batch loads: it either exists, or the short batch reveals the count.
            _ = object(at: selection)
        }
        clamp()
    }

    /// Moves by `rows`, scrolling the view by `scroll` rows too (a page key moves both).
    package func move(by rows: Int, scrolling scroll: Int = 0) {
        top += scroll
        select(row: selection + rows)
    }

    /// Jumps to the last row: counts first when the count is not known yet, then reads the last batch backwards
    /// from the end, loading nothing in between.
    package func selectLast() throws {
        let count = try results.computeCount()
        select(row: count + pendingInserts.count - 1)
    }

    /// Whether every existing row of `rows` can be shown without asking the store (pending inserts, batches in
    /// memory); rows past a known end count as shown.
    func holdsRows(_ rows: Range<Int>) -> Bool {
        rows.allSatisfy { row in
            if let knownCount, row >= knownCount { return true }
            if row < pendingInserts.count { return true }
            return results.holdsBatch((row - pendingInserts.count) / batchSize)
        }
    }

    /// Puts the selection and the first row back where they were (a move refused while the store is busy).
    func restore(selection: Int, top: Int) {
        self.selection = selection
        self.top = top
        clamp()
    }

    /// Sets how many rows are on screen.
    package func layout(visibleRows rows: Int) {
        visibleRows = max(1, rows)
        clamp()
    }

    /// Selects `column` (clamped) and scrolls columns so it is visible in `width` cells.
    package func selectColumn(_ column: Int, width: Int) {
        currentColumn = min(max(0, column), max(0, columns.count - 1))
        if currentColumn < firstVisibleColumn { firstVisibleColumn = currentColumn }
        while firstVisibleColumn < currentColumn, !fits(from: firstVisibleColumn, through: currentColumn, width: width) {
            firstVisibleColumn += 1
        }
    }

    /// Widens columns to fit `values` (the texts of the rows on screen), up to `maximumColumnWidth`.
    func fit(column: Int, toText text: String) {
        guard columns.indices.contains(column) else { return }
        let width = min(Self.maximumColumnWidth, DisplayWidth.of(TerminalSanitizer.sanitize(text, layout: .singleLine)))
        if width > columnWidths[column] { columnWidths[column] = width }
    }

    private func fits(from first: Int, through last: Int, width: Int) -> Bool {
        let needed = (first...last).reduce(0) { $0 + columnWidths[$1] + 1 }
        return needed <= width
    }

    private func clamp() {
        let count = rowCount
        selection = min(max(0, selection), max(0, count - 1))
        top = min(max(0, top), max(0, count - visibleRows))
        if selection < top { top = selection }
        if selection >= top + visibleRows { top = selection - visibleRows + 1 }
    }

    /// Places the selection on the object with `id` if it is within `radius` batches of `near`; returns whether
    /// it was found. Refresh uses it to keep the cursor on the same object after a re-fetch.
    @discardableResult
    func reselect(_ id: NSManagedObjectID, near tableRow: Int, radius: Int = 2) -> Bool {
        if let index = pendingInserts.firstIndex(where: { $0.objectID == id }) {
            select(row: index)
            return true
        }
        let row = max(0, tableRow - pendingInserts.count)
        let batch = row / batchSize
        for candidate in max(0, batch - radius)...(batch + radius) {
            guard let objects = try? results.objects(inBatch: candidate) else { continue }
            if let index = objects.firstIndex(where: { $0.objectID == id }) {
                select(row: pendingInserts.count + candidate * batchSize + index)
                return true
            }
            if objects.count < batchSize { break }
        }
        return false
    }
}
