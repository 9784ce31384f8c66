import ArgumentParser
import StoreAccess

/// The `STORE` argument and `--model` option of every command that reads or writes a store's objects (`query`,
/// `count`, `aggregate`, `insert`, `set`, `delete`), declared once and taken with `@OptionGroup`. The group comes
/// first in each command, so `STORE` is the first positional argument.
///
/// `create` (a store that must not exist yet, with a required model), `browse` (an optional store),
/// `schema` (a store or a model) and `predicate` (`--store` with `--sql`) give these words other meanings and
/// declare their own.
struct StoreOptions: ParsableArguments {
    @Argument(help: "The store (.sqlite, an XML or binary store).", completion: .file())
    var store: String

    @Option(help: "A model to read the store with instead of the one it carries.")
    var model: String?

    @Option(help: ArgumentHelp("The store type: sqlite, xml, binary, memory (the file's objects in memory, never written back) or a "
                               + "registered custom type; detected from the file when not given."))
    var type: String?

    func validate() throws {
        _ = try kind()
    }

    /// The store type `--type` names, or nil to detect it.
    func kind() throws -> StoreKind? {
        do {
            return try type.map(StoreKind.init(typeName:))
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// Opens the store, read-only unless `readOnly` is false, and prints any note about opening it to stderr.
    func open(readOnly: Bool = true) throws -> StoreSession {
        let session = try StoreSession(storePath: store, modelPath: model, readOnly: readOnly, kind: try kind())
        StoreNotes.report(session.recoveryNote)
        return session
    }
}
