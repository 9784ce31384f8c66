import ArgumentParser
import CoreDataObjectGraph
import StoreAccess

/// `coredata count STORE ENTITY [PREDICATE]`: the number of matching objects, counted by the store.
struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count", abstract: "Count the objects of an entity that match a predicate (count(for:)).")

    @Argument(help: "The store (.sqlite).") var store: String
    @Argument(help: "The entity to count.") var entity: String
    @Argument(help: "A predicate, in NSPredicate format.") var predicate: String?
    @Option(help: "A model to read the store with instead of the one it carries.") var model: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        do {
            let session = try StoreSession(storePath: store, modelPath: model)
            StoreNotes.report(session.recoveryNote)
            let request = try session.objectRequest(entityName: entity, predicate: predicate)
            let count = try session.context.performAndWait { try session.context.count(for: request) }
            print(count)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(wrapping: error)
        }
    }
}
