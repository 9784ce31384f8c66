#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CReadline

extension ReadlineLineEditor {
    /// Reads every kind's history file through readline's own reader.
    func loadHistoryFiles() {
        for (kind, path) in historyFiles {
            clear_history()
            guard read_history(path) == 0 else { continue }  // a missing file is an empty history
            histories[kind] = (0..<Int(ocd_history_length())).compactMap { offset in
                ocd_history_line(Int32(offset)).map { String(cString: $0) }
            }.suffix(historyLimit)
        }
        clear_history()
    }

    /// Adds an accepted line to the kind's history and file (empty lines and immediate repeats are skipped).
    func record(_ line: String, for kind: PromptKind) {
        guard !line.isEmpty, histories[kind]?.last != line else { return }
        histories[kind, default: []].append(line)
        if histories[kind]!.count > historyLimit { histories[kind]!.removeFirst() }
        add_history(line)
        guard let path = historyFiles[kind] else { return }
        let status = access(path, F_OK) == 0 ? append_history(1, path) : write_history(path)
        if status == 0 { history_truncate_file(path, Int32(clamping: historyLimit)) }
    }
}
