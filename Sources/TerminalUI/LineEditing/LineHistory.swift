#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-kind prompt history in memory, optionally backed by files in readline's plain format (one entry a line,
/// `#` timestamp lines ignored), so both editors read and write the same files.
struct LineHistory {
    private(set) var entries: [PromptKind: [String]] = [:]
    let files: [PromptKind: String]
    let limit: Int

    init(files: [PromptKind: String], limit: Int) {
        self.files = files
        self.limit = max(1, limit)
        for (kind, path) in files {
            entries[kind] = Array(Self.readLines(path).suffix(self.limit))
        }
    }

    func lines(for kind: PromptKind) -> [String] { entries[kind] ?? [] }

    /// Records an accepted line: skipped when empty or equal to the previous entry; appended to the kind's file.
    mutating func record(_ line: String, for kind: PromptKind) {
        guard !line.isEmpty, entries[kind]?.last != line else { return }
        entries[kind, default: []].append(line)
        if entries[kind]!.count > limit { entries[kind]!.removeFirst(entries[kind]!.count - limit) }
        if let path = files[kind] { Self.append(line, to: path) }
    }

    private static func readLines(_ path: String) -> [String] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while true {
            let length = getline(&buffer, &capacity, file)
            guard length >= 0, let buffer else { break }
            var bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
            if bytes.last == 0x0A { bytes.removeLast() }
            if bytes.first == UInt8(ascii: "#") { continue }
            lines.append(String(decoding: bytes, as: UTF8.self))  // tolerate invalid UTF-8 in old files
        }
        return lines
    }

    private static func append(_ line: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { return }  // history is best effort: an unwritable file never stops editing
        defer { close(descriptor) }
        let bytes = Array(line.utf8) + [0x0A]
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
