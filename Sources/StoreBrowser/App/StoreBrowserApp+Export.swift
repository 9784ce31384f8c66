import CoreDataObjectGraph
import Foundation
import StoreAccess
import TerminalUI

extension StoreBrowserApp {
    /// `:export csv|json PATH`: starts streaming the current table to PATH; ticks advance it with progress in the
    /// message line, Esc cancels it.
    func export(_ argument: String) throws {
        let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let format = ExportJob.Format(rawValue: parts[0].lowercased()) else {
            throw StoreAccessError(":export takes csv or json and a file path, as in :export csv recipes.csv")
        }
        guard exportJob == nil else { throw StoreAccessError("an export is already running; Esc cancels it") }
        let path = (parts[1] as NSString).expandingTildeInPath
        // An existing file is replaced only once the user says so.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            overlay = .confirm(Confirmation(
                title: "Overwrite \(path)?",
                lines: ["\(path) exists; the export would replace it."],
                options: [("y", "overwrite", .overwriteExport(format, path)), ("n", "keep it (or Esc)", .cancel)]))
            return
        }
        try startExport(format, to: path)
    }

    /// Starts streaming the current table to `path`.
    func startExport(_ format: ExportJob.Format, to path: String) throws {
        exportJob = try session.perform {
            try ExportJob(table: table, format: format, path: path, context: session.context)
        }
        show("exporting to \(path)…")
    }

    /// Batches one step writes.
    static let exportBatchesPerStep = 5

    /// One step of the export: its next batches are read off the loop as a job (the store's own connection), then
    /// written here, where the objects are made and their labels read; the next tick starts the next step.
    func advanceExport() {
        guard let job = exportJob, !jobs.isBusy else { return }
        let results = JobTransfer(job.results)
        let first = job.nextBatch
        let total = job.total.map { " of " + NumberText.grouped($0) } ?? ""
        jobs.start("exporting \(NumberText.grouped(job.written))\(total) objects to \(job.path)", usesStore: true,
                   cancel: storeInterrupt) { isCancelled in
            for batch in first..<(first + Self.exportBatchesPerStep) where !isCancelled() {
                try results.value.preload(batch: batch)
                if let count = results.value.countIfKnown, (batch + 1) * results.value.batchSize >= count { break }
            }
            return JobTransfer(())
        } finish: { [self] outcome in
            guard exportJob === job else { return }
            switch outcome {
            case .success:
                do {
                    let done = try session.perform { try job.step(batches: Self.exportBatchesPerStep) }
                    if done {
                        exportJob = nil
                        show("exported \(NumberText.grouped(job.written)) objects to \(job.path)")
                    } else {
                        let total = job.total.map { " of " + NumberText.grouped($0) } ?? ""
                        show("exporting \(NumberText.grouped(job.written))\(total) objects to \(job.path)… (Esc cancels)")
                    }
                } catch {
                    job.cancel()
                    exportJob = nil
                    show(error: error)
                }
            case .failure(let error):
                job.cancel()
                exportJob = nil
                show(error: error)
            case nil:
                _ = cancelExport()
            }
        }
    }

    /// Cancels a running export; returns whether there was one.
    func cancelExport() -> Bool {
        guard let job = exportJob else { return false }
        job.cancel()
        exportJob = nil
        show("export cancelled; nothing written to \(job.path)")
        return true
    }
}
