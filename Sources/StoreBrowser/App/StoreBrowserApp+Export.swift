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

    func advanceExport() {
        guard let job = exportJob else { return }
        do {
            let done = try session.perform { try job.step() }
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
