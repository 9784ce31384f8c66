import ArgumentParser
import Foundation
import JSONDirectoryStore
import StoreAccess

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
                      CreateCommand.self, InsertCommand.self, SetCommand.self, DeleteCommand.self, SamplesCommand.self, MigrateCommand.self,
                      DiffCommand.self, ConvertCommand.self, CompileModelCommand.self],
        defaultSubcommand: BrowseCommand.self)

    static func main() {
        // The example custom store (Examples/JSONDirectoryStore): `--type jsondirectory` opens one.
        JSONDirectoryStore.register()
        do {
            try RegularExpressionEnvironment.apply()
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(reporting: error)
        }
    }

    /// The one place an error leaves the tool, so commands just throw: a runtime failure (a ``CommandFailure`` or
    /// any library error thrown by `run()`) is one `coredata: error: …` line and status 1; a usage error is
    /// ArgumentParser's message and status 2; `--help` and `--version` print and exit 0.
    static func exit(reporting error: any Error) -> Never {
        if exitCode(for: error) == .success {
            print(fullMessage(for: error))
            Foundation.exit(0)
        }
        if let failure = error as? CommandFailure {
            FileHandle.standardError.write(Data("coredata: error: \(failure.message)\n".utf8))
            Foundation.exit(failure.exitStatus)
        }
        if let access = error as? StoreAccessError, access.isUsageError {
            FileHandle.standardError.write(Data("coredata: error: \(access.message)\n".utf8))
            Foundation.exit(ExitStatus.usageError)
        }
        if isRuntimeError(error) {
            FileHandle.standardError.write(Data("coredata: error: \(CommandFailure.describe(error))\n".utf8))
            Foundation.exit(ExitStatus.runtimeFailure)
        }
        FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
        Foundation.exit(ExitStatus.usageError)
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
