import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import Predicates
import StoreAccess
import TerminalText

/// `coredata predicate FORMAT`: parse a predicate and print its canonical format, evaluate it against a JSON
/// value, or print the SQL a store would run for it.
struct PredicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predicate",
        abstract: "Parse a predicate: print its canonical format, evaluate it, or show its SQL.",
        discussion: """
            Without options, prints the canonical format of FORMAT (as NSPredicate.predicateFormat). \
            --evaluate JSON evaluates it against a JSON value (objects are dictionaries, arrays collections, and \
            any other value stands for itself as SELF) and prints true or false. --sql prints the SQL fetch of \
            --entity in --store, with its bindings. An XML or binary store runs no SQL: Core Data loads the whole \
            store and evaluates the predicate in memory on each object, so --sql prints the parsed predicate, says \
            so, and counts the objects it matches. A predicate that does not parse is shown with a caret under \
            the offending character.
            """)

    @Argument(help: "The predicate format string, such as 'name BEGINSWITH[cd] \"a\" AND age > 30'.")
    var format: String

    @Option(name: .long, help: ArgumentHelp("Evaluate against this JSON value and print true or false.", valueName: "json"))
    var evaluate: String?

    @Flag(name: .long, help: "Print the SQL a fetch of --entity in --store runs, and its bindings.")
    var sql = false

    @Option(name: .long, help: ArgumentHelp("The entity fetched (with --sql).", valueName: "entity"))
    var entity: String?

    @Option(name: .long, help: ArgumentHelp("The store (with --sql); a store that is not SQLite is evaluated in memory.", valueName: "store"))
    var store: String?

    @Option(name: .long, help: "A model to use for the store instead of the one it carries (with --sql).")
    var model: String?

    @Option(name: .long, help: ArgumentHelp("Values for $variables, as a JSON object ({\"min\": 30}), substituted before printing, evaluating or compiling.", valueName: "json"))
    var variables: String?

    @OptionGroup var predicateInputs: PredicateInputs

    func validate() throws {
        if sql && (entity == nil || store == nil) {
            throw ValidationError("--sql needs --entity and --store")
        }
        if !sql && (entity != nil || store != nil || model != nil) {
            throw ValidationError("--entity, --store and --model are used with --sql")
        }
    }

    func run() throws {
        var predicate: Predicates.NSPredicate
        do {
            predicate = try Predicates.NSPredicate(parsing: format, argumentArray: try predicateInputs.parsedArguments())
        } catch let error as PredicateSyntaxError {
            throw Self.failure("invalid predicate: \(error.reason)", diagnostic: error.caretDiagnostic, status: ExitStatus.usageError)
        }
        var substitutions = try predicateInputs.parsedVariables()
        if let variables {
            guard let object = PredicateInputs.jsonValue(variables) as? [String: Any] else {
                throw CommandFailure("--variables takes a JSON object, such as '{\"min\": 30}', not \(variables)", exitStatus: ExitStatus.usageError)
            }
            substitutions.merge(object) { _, new in new }
        }
        if !substitutions.isEmpty { predicate = predicate.withSubstitutionVariables(substitutions) }
        if evaluate == nil && !sql {
            print(TerminalSanitizer.sanitize(predicate.predicateFormat))
        }
        if let evaluate {
            print(try Self.evaluate(predicate, json: evaluate) ? "true" : "false")
        }
        if sql, let entity, let store {
            let type = try StoreKind.detectedType(at: store)
            guard type == NSSQLiteStoreType else {
                try Self.describeInMemory(predicate, entity: entity, store: store, type: type, modelPath: model)
                return
            }
            let storeModel = try Self.model(forStore: store, modelPath: model)
            do {
                let query = try PredicateSQLCompiler(model: storeModel).fetch(entityName: entity, predicate: predicate)
                print(TerminalSanitizer.sanitize(query.debugDescription))
            } catch {
                throw Self.failure(error.description, diagnostic: error.caretDiagnostic, status: ExitStatus.runtimeFailure)
            }
        }
    }

    /// `--sql` on a store without SQL (XML, binary): the parsed predicate, how Core Data runs it (in memory, on
    /// every object of the entity once the store is loaded) and what it matches there, from a real fetch.
    private static func describeInMemory(_ predicate: Predicates.NSPredicate, entity name: String, store: String, type: String,
                                         modelPath: String?) throws {
        let session: StoreSession
        do {
            session = try StoreSession(storePath: store, modelPath: modelPath, readOnly: true, kind: .file(type))
        } catch {
            throw CommandFailure(wrapping: error)
        }
        let entity = try session.entity(named: name)
        // A key the entity lacks is refused here first, as the SQLite path refuses it, with the caret under it (the
        // store would refuse it too, without the caret). Other refusals of the SQL compiler do not apply here.
        do {
            _ = try PredicateSQLCompiler(model: session.model).fetch(entityName: entity.entityName, predicate: predicate)
        } catch where error.reason.contains("has no property named") {
            throw Self.failure(error.description, diagnostic: error.caretDiagnostic, status: ExitStatus.runtimeFailure)
        } catch {}
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
        request.predicate = predicate
        let (matching, total) = try session.context.performAndWait {
            (try session.context.count(for: request), try session.context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity.entityName)))
        }
        let kind = StoreKind.name(of: type)
        print(TerminalSanitizer.sanitize("\(entity.entityName) WHERE \(predicate.predicateFormat)"))
        print("no SQL: \(session.path) is \(kind == "xml" ? "an" : "a") \(kind) store, which Core Data reads whole into memory; "
              + "a fetch evaluates the predicate on each \(entity.entityName) object (subentities included)")
        print("matches \(matching) of \(total) \(entity.entityName) object\(total == 1 ? "" : "s")")
    }

    /// A headline, then the format with a caret under the offending character on lines of their own, so the
    /// `coredata: error: ` prefix never shifts the caret off its character. `status`: usage for a format that does
    /// not parse, runtime for one the store's model rejects.
    private static func failure(_ message: String, diagnostic: String, status: Int32) -> CommandFailure {
        CommandFailure(TerminalSanitizer.sanitize(message) + "\n" + diagnostic, exitStatus: status)
    }

    private static func evaluate(_ predicate: Predicates.NSPredicate, json: String) throws -> Bool {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        } catch {
            throw CommandFailure("--evaluate: not valid JSON: \(json)")
        }
        do {
            return try PredicateEvaluator(evaluatedObject: object).evaluate(predicate.predicateNode)
        } catch {
            throw CommandFailure("cannot evaluate '\(predicate.predicateFormat)': \(error.reason)")
        }
    }

    /// The store's model as `coredata schema` finds it: `--model` (the version matching the store's hashes),
    /// else the store's model cache, else inferred from its tables.
    private static func model(forStore path: String, modelPath: String?) throws -> NSManagedObjectModel {
        let store = try SQLiteStoreFile(path: path)
        if let modelPath {
            let versions = try ModelLoader.loadVersions(at: URL(fileURLWithPath: modelPath))
            let hashes = store.metadata.versionHashes
            return versions.versions.first { $0.model.entityVersionHashesByName == hashes }?.model
                ?? versions.currentModel
        }
        if let cached = try store.cachedModel() { return cached }
        return try ModelInference(store: store).infer().model
    }
}
