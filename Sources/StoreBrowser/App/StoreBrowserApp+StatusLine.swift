import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess
import TerminalText

extension StoreBrowserApp {
    /// `Recipes.sqlite › Recipe │ filter │ sort │ row 12 of 200 │ 2 pending │ read-only │ 50 rows in 1.2 ms`, fitted
    /// to `width`: the breadcrumb gives way first (it keeps its end, where the user is), then the fetch timing, then
    /// the filter, so the position and counts always show (issue 21).
    func statusText(width: Int = .max) -> String {
        let crumbs = (backStack.suffix(2) + [location]).map(\.crumb)
        var crumb = session.storeName + " › " + (backStack.count > 2 ? "… › " : "") + crumbs.joined(separator: " › ")
        var filter = table.query.filter.map { "/ " + $0.predicateFormat }
        let sort = table.query.sortKeys.isEmpty ? nil : "sort " + table.query.sortKeys.map(\.text).joined(separator: ",")
        var middle: [String] = []
        if let detail = location.detail {
            middle.append("field \(detail.selection + 1) of \(detail.fields.count)")
        } else {
            let count = table.knownCount ?? entityCountOfUnfilteredTable
            let total = count.map { NumberText.grouped($0) } ?? "≥" + NumberText.grouped(table.loadedEnd)
            let row = count == 0 ? 0 : table.selection + 1
            middle.append("row \(NumberText.grouped(row)) of \(total)" + (session.counter.isBusy ? " (counting)" : ""))
        }
        let pending = session.pendingChangeCount
        if pending > 0 { middle.append("\(pending) pending") }
        middle.append(session.isEditable ? "EDIT" : "read-only")
        if storeChangedOutside { middle.append("store changed: r") }
        var timing: String?
        let counts = session.store.coordinator.statistics.snapshot
        if counts.fetches > 0 {
            let rows = counts.lastFetchRowCount
            timing = "\(NumberText.grouped(rows)) row\(rows == 1 ? "" : "s") in " + String(format: "%.1f ms", counts.lastFetchDuration * 1000)
        }
        func line() -> String {
            " " + ([crumb] + [filter, sort].compactMap { $0 } + middle + [timing].compactMap { $0 }).joined(separator: " │ ")
        }
        var text = line()
        var excess = DisplayWidth.of(TerminalSanitizer.sanitize(text)) - width
        guard excess > 0 else { return text }
        crumb = Self.keepingEnd(crumb, removing: excess, minimum: max(12, width / 3))
        text = line()
        excess = DisplayWidth.of(TerminalSanitizer.sanitize(text)) - width
        if excess > 0, timing != nil {
            timing = nil
            text = line()
            excess = DisplayWidth.of(TerminalSanitizer.sanitize(text)) - width
        }
        if excess > 0, let full = filter {
            filter = DisplayWidth.truncate(full, toWidth: max(10, DisplayWidth.of(full) - excess))
            text = line()
        }
        return text
    }

    /// `text` shortened by `excess` columns from its start (`…` in front), never below `minimum` columns.
    private static func keepingEnd(_ text: String, removing excess: Int, minimum: Int) -> String {
        let target = max(minimum, DisplayWidth.of(text) - excess)
        guard DisplayWidth.of(text) > target else { return text }
        var kept = Substring(text)
        while !kept.isEmpty, DisplayWidth.of(String(kept)) + 1 > target { kept = kept.dropFirst() }
        return "…" + kept
    }

    /// An unfiltered table holds every object of its entity, as many as the entity list shows: until its own count
    /// arrives the status line says that number rather than "≥100" beside a list that says 200. Only a current
    /// entity count is used (none while a recount after a write runs, or once the store changed on disk); the
    /// table itself still waits for its own count, so a stale number can never hide or invent rows.
    private var entityCountOfUnfilteredTable: Int? {
        guard table.query.predicate == nil, session.entityCountTicket == nil, !storeChangedOutside,
              let count = session.entityCounts[table.query.entity.entityName] else { return nil }
        return count + table.pendingInserts.count
    }
}
