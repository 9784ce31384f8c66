import ArgumentParser
import CoreDataObjectGraph

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("sql-debug"), help: ArgumentHelp(
        "Log SQL to standard error: 1 statements, 2 with bindings and row counts, 3 with timings.", valueName: "level"))
    var sqlDebug: Int?

    @Flag(name: .shortAndLong, help: "No progress bars or notes on standard error (results and errors are still printed).")
    var quiet = false

    func validate() throws {
        if let sqlDebug, !(0...3).contains(sqlDebug) {
            throw ValidationError("--sql-debug takes 0, 1, 2 or 3, not \(sqlDebug)")
        }
    }

    /// Applies the options before a command runs.
    func apply() {
        if let sqlDebug { SQLDebugLog.level = sqlDebug }
        Verbosity.isQuiet = quiet
    }
}
