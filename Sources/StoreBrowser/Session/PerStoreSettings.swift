import Foundation
import StoreAccess

/// Settings chosen per entity of one store (`:label` display keys in `labels`, `:columns` sets in `columns`),
/// remembered in a file of the state directory as `store path<TAB>entity<TAB>value` lines (editable by hand).
/// Without a directory they live in memory.
final class PerStoreSettings {
    private let path: String?
    private let storePath: String
    private var memory: [String: String] = [:]

    private let what: String

    init(directory: String?, file: String, storePath: String) {
        path = directory.map { $0 + "/" + file }
        what = file
        self.storePath = URL(fileURLWithPath: storePath).standardizedFileURL.path
    }

    /// This store's values, by entity name.
    func values() -> [String: String] {
        guard path != nil else { return memory }
        var result: [String: String] = [:]
        for line in allLines() where line.count == 3 && line[0] == storePath { result[line[1]] = line[2] }
        return result
    }

    /// Sets (or, with nil, removes) the value for `entity`.
    func save(_ value: String?, for entity: String) throws {
        memory[entity] = value
        guard let path else { return }
        guard !storePath.contains("\t"), !storePath.contains("\n") else {
            throw StoreAccessError("the store's path holds a tab or a line break: the \(what) are kept for this session only")
        }
        var lines = allLines().filter { !($0.count == 3 && $0[0] == storePath && $0[1] == entity) }
        if let value { lines.append([storePath, entity, value]) }
        let text = lines.map { $0.joined(separator: "\t") + "\n" }.joined()
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw StoreAccessError("cannot write the \(what) to \(path): \(error.localizedDescription)")
        }
    }

    private func allLines() -> [[String]] {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
