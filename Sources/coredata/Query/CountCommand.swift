import ArgumentParser
import CoreDataObjectGraph
import StoreAccess

/// `coredata count STORE ENTITY [PREDICATE]`: the number of matching objects, counted by the store.
struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count", abstract: "Count the objects of an entity that match a predicate (count(for:)).")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entity to count.", completion: .custom(StoreCompletion.entities)) var entity: String
    @Argument(help: "A predicate, in NSPredicate format.") var predicate: String?
    @OptionGroup var predicateInputs: PredicateInputs
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        let session = try storeOptions.open()
        let request = try session.objectRequest(entityName: entity, parsedPredicate: try predicateInputs.predicate(predicate))
        let count = try session.context.performAndWait { try session.context.count(for: request) }
        print(count)
    }
}
