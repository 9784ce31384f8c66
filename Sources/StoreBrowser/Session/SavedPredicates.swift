import Foundation
import StoreAccess

/// Named filters, kept in `predicates` in the state directory as `name<TAB>format` lines, so they survive
/// sessions and can be edited by hand. Without a directory they live in memory.
final class SavedPredicates {
    private let path: String?
    private var memory: [String: String] = [:]

    init(directory: String?) {
        path = directory.map { $0 + "/predicates" }
    }

    func all() -> [String: String] {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return memory }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            result[String(line[..<tab])] = String(line[line.index(after: tab)...])
        }
        return result
    }

    func save(_ format: String, named name: String) throws {
        guard !name.contains("\t"), !name.contains("\n"), !format.contains("\n") else {
            throw StoreAccessError("a filter name cannot contain tabs or line breaks")
        }
        var entries = all()
        entries[name] = format
        memory = entries
        guard let path else { return }
        let text = entries.keys.sorted().map { "\($0)\t\(entries[$0]!)\n" }.joined()
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw StoreAccessError("cannot write the named filters to \(path): \(error.localizedDescription)")
        }
    }
}
