import ArgumentParser

@main
struct CoreDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coredata",
        abstract: "Browse, query and fix Core Data stores in a terminal.")
}
