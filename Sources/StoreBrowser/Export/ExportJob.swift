import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess

/// Streams the current table (filter and sort applied, every object, not only what is loaded) to a CSV or JSON
/// file, a few batches per step so the browser stays responsive and shows progress. It writes to `PATH.partial`
/// and renames on completion, so a cancelled or failed export never leaves a half file under the real name.
final class ExportJob {
    enum Format: String {
        case csv, json
    }

    let path: String
    let format: Format
    private let partialPath: String
    /// The export's own batched fetch; its next batches are read off the loop (`preload(batch:)`) before `step`.
    let results: BatchFaultingArray
    private let columns: [TableColumn]
    private let table: TableModel
    private let handle: FileHandle
    /// The first batch the next `step` writes.
    private(set) var nextBatch = 0
    private(set) var written = 0
    private(set) var isFinished = false

    init(table: TableModel, format: Format, path: String, context: NSManagedObjectContext) throws {
        self.table = table
        self.format = format
        self.path = path
        self.partialPath = path + ".partial"
        self.columns = table.columns
        results = try context.fetchBatched(table.query.fetchRequest(batchSize: 1_000))
        results.maximumResidentBatches = 2
        // The table's count is this query's count: progress can say "of N" without counting again.
        if let count = table.knownCount { results.assumeCount(count) }
        guard FileManager.default.createFile(atPath: partialPath, contents: nil) else {
            throw StoreAccessError("cannot create \(partialPath) for the export")
        }
        guard let handle = FileHandle(forWritingAtPath: partialPath) else {
            throw StoreAccessError("cannot write \(partialPath)")
        }
        self.handle = handle
        switch format {
        case .csv: try write(columns.map { CSVField.escape($0.key) }.joined(separator: ",") + "\r\n")
        case .json: try write("[")
        }
    }

    /// The total, when counted.
    var total: Int? { results.countIfKnown }

    /// Writes up to `batches` more batches; returns true when the export is complete (the file is in place).
    func step(batches: Int = 5) throws -> Bool {
        for _ in 0..<batches {
            let objects = try results.objects(inBatch: nextBatch)
            nextBatch += 1
            table.prefetchLabels(for: objects)
            for object in objects {
                try write(row(for: object))
                written += 1
            }
            if objects.count < results.batchSize {
                try complete()
                return true
            }
        }
        return false
    }

    /// Stops and removes the partial file.
    func cancel() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: partialPath)
    }

    private func row(for object: NSManagedObject) throws -> String {
        switch format {
        case .csv:
            return columns.map { CSVField.escape(table.text(of: $0, for: object)) }.joined(separator: ",") + "\r\n"
        case .json:
            var dictionary: [String: Any] = ["objectID": object.objectID.uriRepresentation().absoluteString]
            for column in columns {
                switch column.kind {
                case .entity, .keyPath: dictionary[column.key] = table.text(of: column, for: object)
                case .attribute: dictionary[column.key] = ValueFormatting.json(object.propertyValue(forKey: column.key))
                case .toOne:
                    // The URI identifies the object; its label beside it names it for people (issue 21).
                    dictionary[column.key] = object.objectIDForToOne(column.key)?.uriRepresentation().absoluteString ?? NSNull()
                    let label = table.text(of: column, for: object)
                    dictionary[column.key + ".label"] = label.isEmpty ? NSNull() : label
                }
            }
            let data = try JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])
            return (written == 0 ? "\n" : ",\n") + String(decoding: data, as: UTF8.self)
        }
    }

    private func write(_ text: String) throws {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            cancel()
            throw StoreAccessError("export to \(path) failed: \(error.localizedDescription)")
        }
    }

    private func complete() throws {
        if format == .json { try handle.write(contentsOf: Data("\n]\n".utf8)) }
        try handle.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partialPath, toPath: path)
        isFinished = true
    }
}

/// RFC 4180 fields: quoted when they hold a comma, a quote or a line break.
enum CSVField {
    static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
