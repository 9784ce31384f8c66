import ArgumentParser
import Foundation

/// `coredata`: browse, query and fix Core Data stores in a terminal.
///
/// Exit status: 0 on success, 1 for runtime failures (a bad store or model), 2 for usage errors (a bad option,
/// argument or predicate).
@main
struct CoreDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coredata",
        abstract: "Browse, query and fix Core Data stores in a terminal.",
        version: "0.1.0",
        subcommands: [BrowseCommand.self, SchemaCommand.self, QueryCommand.self, CountCommand.self, AggregateCommand.self, PredicateCommand.self,
                      CreateCommand.self, InsertCommand.self, SetCommand.self, DeleteCommand.self, SamplesCommand.self, MigrateCommand.self],
        defaultSubcommand: BrowseCommand.self)

    static func main() {
        do {
            try RegularExpressionEnvironment.apply()
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("coredata: error: \(failure.message)\n".utf8))
            Foundation.exit(failure.exitStatus)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            if isRuntimeError(error) {
                FileHandle.standardError.write(Data("coredata: error: \(CommandFailure.describe(error))\n".utf8))
                Foundation.exit(ExitStatus.runtimeFailure)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(ExitStatus.usageError)
        }
    }

    /// Errors thrown by a command's `run()` (not by argument parsing) are runtime failures.
    private static func isRuntimeError(_ error: any Error) -> Bool {
        !(error is ValidationError) && exitCode(for: error) == .failure && !(error is CleanExit)
    }
}

enum ExitStatus {
    static let runtimeFailure: Int32 = 1
    static let usageError: Int32 = 2
}
