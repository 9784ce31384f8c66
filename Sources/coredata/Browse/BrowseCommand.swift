import ArgumentParser
import Foundation
import StoreAccess
import StoreBrowser
import TerminalUI

/// `coredata [browse] [STORE] [--entity E] [--predicate P] [--model M] [--edit]`: the terminal browser. With no
/// store it opens the default sample store.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse a store in the terminal (the default command).",
        discussion: """
            Opens read-only unless --edit is given (or :edit typed). Keys: ? lists them. Prompt histories and named \
            filters are kept in $XDG_STATE_HOME/coredata (default ~/.local/state/coredata).
            """)

    @Argument(help: ArgumentHelp("The store (.sqlite, XML or binary). Without one, the Recipes sample store.", valueName: "store"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("The entity whose table opens first.", valueName: "entity"))
    var entity: String?

    @Option(name: .long, help: ArgumentHelp("A predicate that filters that table at once.", valueName: "predicate"))
    var predicate: String?

    @Option(name: .long, help: "A model (.xcdatamodeld, .xcdatamodel, .momd, .mom) instead of the one the store carries.")
    var model: String?

    @Flag(name: .long, help: "Open the store for editing (read-only otherwise).")
    var edit = false

    @Option(name: .long, help: ArgumentHelp("The store type: sqlite, xml, binary, memory (the file's objects in memory, never written back) "
                                            + "or a registered custom type; detected from the file when not given.", valueName: "type"))
    var type: String?

    @Flag(name: .customLong("auto-refresh"), help: "Re-fetch by itself when another process writes the store.")
    var autoRefresh = false

    @Flag(name: .long, help: "Report mouse clicks and the wheel (takes text selection from the terminal).")
    var mouse = false

    @Flag(name: .customLong("basic-line-editor"), help: "Edit prompts without GNU readline.")
    var basicLineEditor = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        // As the default command, browse receives mistyped subcommands: a bare word that names no file is one.
        if let store, !store.contains("/"), !store.contains("."), !FileManager.default.fileExists(atPath: store) {
            throw ValidationError("'\(store)' is neither a command nor a store; coredata --help lists the commands")
        }
        if let type {
            do {
                _ = try StoreKind(typeName: type)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() throws {
        global.apply()
        if global.sqlDebug ?? 0 > 0, isatty(STDERR_FILENO) == 1 {
            throw CommandFailure("--sql-debug writes to standard error, which is this terminal: redirect it (2>sql.log)")
        }
        do {
            // A malformed --predicate is a usage error, reported before the store is opened or the screen changes.
            _ = try StoreSession.predicate(predicate)
        } catch {
            throw CommandFailure(wrapping: error)
        }
        let storePath: String
        let kind: StoreKind?
        do {
            kind = try type.map(StoreKind.init(typeName:))
            let given = try store ?? Self.defaultSampleStore()
            // A custom store may be a directory of its own making: only the built-in file types are looked into.
            if case .file(let storeType)? = kind, !StoreKind.isFileType(storeType) {
                storePath = given
            } else {
                storePath = try SourceKind.storeFile(at: given)
            }
        } catch {
            throw CommandFailure(wrapping: error)
        }
        let environment = ProcessInfo.processInfo.environment
        let stateDirectory = BrowserOptions.defaultStateDirectory(environment: environment)
        if let stateDirectory {
            try? FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        var options = BrowserOptions(storePath: storePath, modelPath: model, entityName: entity, predicateFormat: predicate,
                                     allowsEditing: edit, stateDirectory: stateDirectory, refreshesAutomatically: autoRefresh)
        options.storeKind = kind
        // Everything that can fail on the store fails here, before the screen changes, so the error stays readable.
        let session = try BrowserSession(options: options)
        let editor = try makeEditor(stateDirectory: stateDirectory)
        let terminal: CursesTerminal
        do {
            // Ctrl-C as a key: it cancels long work (a sort, G), and quits as q does otherwise.
            terminal = try CursesTerminal(options: CursesTerminal.Options(enablesMouse: mouse, deliversControlKeys: true))
        } catch {
            throw CommandFailure("cannot open the terminal: \(error); use coredata query for scripts")
        }
        defer { terminal.close() }
        let theme: Theme = terminal.showsColor && !Theme.colorIsDisabled(by: environment) ? .colored : .monochrome
        do {
            var app = try StoreBrowserApp(session: session, editor: editor, theme: theme)
            try TerminalUI.run(app: &app, terminal: terminal)
        } catch {
            // Back to the normal screen before the error is printed.
            terminal.close()
            throw error
        }
    }

    private func makeEditor(stateDirectory: String?) throws -> any LineEditor {
        var files: [PromptKind: String] = [:]
        if let stateDirectory {
            files[.filter] = stateDirectory + "/filter_history"
            files[.command] = stateDirectory + "/command_history"
        }
        if basicLineEditor { return BasicLineEditor(historyFiles: files) }
        do {
            return try ReadlineLineEditor(applicationName: "coredata", historyFiles: files)
        } catch {
            return BasicLineEditor(historyFiles: files)
        }
    }

    /// `SampleStores/Recipes/Recipes.sqlite`, looked for in the current directory and then upwards from the
    /// executable (so `make run` and an installed build inside the checkout both find it).
    static func defaultSampleStore() throws -> String {
        let relative = "SampleStores/Recipes/Recipes.sqlite"
        var candidates = [FileManager.default.currentDirectoryPath]
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            candidates.append(directory.path)
            directory.deleteLastPathComponent()
        }
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate + "/" + relative) {
            return candidate + "/" + relative
        }
        throw CommandFailure("no store given and no \(relative) found here or above the executable; coredata STORE opens one")
    }
}
