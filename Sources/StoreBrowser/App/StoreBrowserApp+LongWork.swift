import CoreDataModel
import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreAccess
import TerminalUI

/// Long work off the event loop (issue 21): a sort or filter reads its first batch, `G` counts and reads the last
/// batch, `F` groups on a background context, and `D` scans on the background counter's connection, each as a
/// `BrowserJobs` job while the screen keeps drawing a spinner and answering keys.
///
/// Where each runs, and why:
/// - Sort, filter and `G` read through the new (or current) table's batch-faulting array, on the store's own
///   connection under the coordinator's lock (`BatchFaultingArray.preload(batch:)`), so the rows they read are the
///   ones the table then shows without a second query; the objects are made on the browser context's queue when
///   the result is collected.
/// - `F` runs its grouped fetch on a private-queue context of its own on the same coordinator (so the same lock),
///   never on the browser's context, whose queue the screen needs meanwhile.
/// - `D` runs on the background counter's read-only connection: it never touches the coordinator.
///
/// While a job holds the store (the first two), the loop must not wait for the coordinator's lock: it draws only the
/// batches in memory and refuses every command but moving over what is shown, `?`, quit, Esc (cancel) and Ctrl-L.
/// Esc or Ctrl-C cancels through the connection's `InterruptHandle` (`sqlite3_interrupt`).
extension StoreBrowserApp {
    /// Commands that read nothing from the store, so they work while a job runs.
    static let commandsWhileWorking: Set<BrowserCommand> = [
        .moveDown, .moveUp, .pageDown, .pageUp, .halfPageDown, .halfPageUp, .first,
        .columnLeft, .columnRight, .help, .quit, .cancel, .redraw, .suspend,
    ]

    /// Whether long work (a sort, filter, `G`, `F`, `D`, an export step) is running off the event loop.
    public var isWorking: Bool { jobs.isBusy }

    /// Waits for the long work running now and applies its result, as the loop's next tick would: for programs that
    /// drive the browser with scripted keys and no clock (the benchmarks), so that a key's time includes its result.
    public func finishWork() {
        while jobs.isBusy {
            jobs.waitUntilIdle()
            collectJobs()
        }
    }

    /// Cancels the store's running statement (a sort, `G`, `F`).
    var storeInterrupt: @Sendable () -> Void {
        let handles = session.store.coordinator.persistentStores.compactMap { ($0 as? NSSQLiteStore)?.interruptHandle }
        return { for handle in handles { handle.interrupt() } }
    }

    /// Picks up a finished job and keeps the tables from reading the store while one holds it.
    package func collectJobs() {
        // A finished job's result is applied with the store free again.
        for table in ([location] + backStack + forwardStack).map(\.table) { table.avoidsStore = false }
        jobs.collect()
        let avoids = jobs.holdsStore
        for table in ([location] + backStack + forwardStack).map(\.table) { table.avoidsStore = avoids }
    }

    /// Refuses a command that would wait for the running job; nil when it may run.
    func refusalWhileWorking(_ command: BrowserCommand) -> String? {
        guard let running = jobs.running, !Self.commandsWhileWorking.contains(command) else { return nil }
        return "busy \(running.title): wait, or Esc cancels"
    }

    /// Esc or Ctrl-C: cancels the running job; returns whether there was one.
    func cancelJob() -> Bool {
        guard let title = jobs.cancel() else { return false }
        show("cancelling \(title)…")
        return true
    }

    // MARK: Tables

    /// Replaces the current table with one for `query` once its first batch is read, off the loop; `then` runs
    /// after the new table is in place.
    func replaceTableInBackground(with query: TableQuery, title: String, then: @escaping () -> Void = {}) throws {
        let table = try session.perform {
            try TableModel(query: query, context: session.context, batchSize: session.options.batchSize, labels: session.labels)
        }
        let results = JobTransfer(table.results)
        let replaced = location.table
        jobs.start(title, usesStore: true, cancel: storeInterrupt) { _ in
            try results.value.preload(batch: 0)
            return JobTransfer(())
        } finish: { [self] outcome in
            switch outcome {
            case .success:
                guard location.table === replaced else { return }
                let isPicker = location.isPicker
                location = BrowserLocation(table: table)
                location.isPicker = isPicker
                startCounting(table)
                then()
            case .failure(let error): show(error: error)
            case nil: show("cancelled \(title)")
            }
        }
    }

    /// `G` in a table: counts, then reads the last batch backwards from the end, off the loop; selects the last row
    /// when done. Without work to do (count known, last batch in memory) it moves at once.
    func selectLastInBackground() throws {
        let table = self.table
        let batchSize = table.batchSize
        if let count = table.results.countIfKnown, count == 0 || table.results.holdsBatch((count - 1) / batchSize) {
            try session.perform { try table.selectLast() }
            return
        }
        let results = JobTransfer(table.results)
        jobs.start("jumping to the last row", usesStore: true, cancel: storeInterrupt) { isCancelled in
            let count = try results.value.computeCount()
            if count > 0, !isCancelled() { try results.value.preload(batch: (count - 1) / batchSize) }
            return JobTransfer(())
        } finish: { [self] outcome in
            switch outcome {
            case .success:
                guard location.table === table else { return }
                do { try session.perform { try table.selectLast() } } catch { show(error: error) }
            case .failure(let error): show(error: error)
            case nil: show("cancelled jumping to the last row")
            }
        }
    }

    // MARK: Analysis

    /// `F`: the frequency table of the current column, grouped by the store on a context of its own.
    func showFrequencyInBackground() throws {
        guard table.columns.indices.contains(table.currentColumn) else { return }
        let column = table.columns[table.currentColumn]
        guard column.isKeyPath else { throw StoreAccessError("the \(column.key) column has no frequency in the store") }
        let key = column.key
        let query = JobTransfer(table.query)
        let labels = JobTransfer(session.labels)
        let coordinator = JobTransfer(session.store.coordinator)
        jobs.start("counting the values of \(key)", usesStore: true, cancel: storeInterrupt) { _ in
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.name = "browser frequency"
            context.persistentStoreCoordinator = coordinator.value
            return JobTransfer(try FrequencyModel(key: key, query: query.value, context: context, labels: labels.value))
        } finish: { [self] outcome in
            switch outcome {
            case .success(let model): overlay = .frequency(model)
            case .failure(let error): show(error: error)
            case nil: show("cancelled counting the values of \(key)")
            }
        }
    }

    /// `D`: statistics of every attribute, scanned on the background counter's connection.
    func showDescriptionInBackground() throws {
        let plan = try DescribeReport.Plan(query: table.query, model: session.model)
        let counter = session.counter
        let title = table.query.title
        let sql = plan.query
        jobs.start("describing \(title)", usesStore: false, cancel: { counter.cancelAll() }) { _ in
            JobTransfer(try counter.rows(of: sql))
        } finish: { [self] outcome in
            // Cancelling interrupts the counter, and so any count it was running: count this table again.
            defer { startCounting(table) }
            switch outcome {
            case .success(let rows):
                do {
                    let report = try DescribeReport(plan: plan, rows: rows)
                    overlay = .text(title: "Describe \(title)", lines: report.lines(), scroll: 0)
                } catch {
                    show(error: error)
                }
            case .failure(let error): show(error: error)
            case nil: show("cancelled describing \(title)")
            }
        }
    }
}
