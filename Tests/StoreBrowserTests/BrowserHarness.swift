import CoreDataTestSupport
import Foundation
import StoreBrowser
import TerminalUI

/// A browser on a copy of a sample store, driven through a `VirtualTerminal`: tests press keys and read the screen
/// as text, exactly what a user would see, without a tty.
final class BrowserHarness {
    let directory: URL
    let storePath: String
    let session: BrowserSession
    let app: StoreBrowserApp
    let terminal: VirtualTerminal
    let editor: BasicLineEditor
    /// Whether each key waits for the browser's long work (a sort, `G`, `F`, `D`) to finish first, as a patient
    /// user would; the tests of long work itself turn it off and press keys while it runs.
    var waitsForJobs = true

    /// Copies `SampleStores/<sample>/` to a temporary directory and opens the browser on it.
    init(sample: String = "Recipes", entity: String? = nil, predicate: String? = nil, edit: Bool = false,
         size: Size = Size(columns: 120, rows: 30), batchSize: Int = 100, autoRefresh: Bool = false,
         theme: Theme = .monochrome, stateDirectory: URL? = nil,
         prepare: ((_ storePath: String) throws -> Void)? = nil) throws {
        directory = try TemporaryDirectory.make(prefix: "browser")
        let source = Fixtures.projectRoot.appendingPathComponent("SampleStores/\(sample)")
        let copy = directory.appendingPathComponent(sample)
        try FileManager.default.copyItem(at: source, to: copy)
        storePath = copy.appendingPathComponent("\(sample).sqlite").path
        try prepare?(storePath)
        // Histories live in the state directory as the real command keeps them (`BrowseCommand.makeEditor`).
        let state = (stateDirectory ?? directory.appendingPathComponent("state")).path
        let options = BrowserOptions(storePath: storePath, entityName: entity, predicateFormat: predicate, allowsEditing: edit,
                                     stateDirectory: state,
                                     refreshesAutomatically: autoRefresh, batchSize: batchSize)
        session = try BrowserSession(options: options)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        editor = BasicLineEditor(historyFiles: [.filter: state + "/filter_history", .command: state + "/command_history"])
        app = try StoreBrowserApp(session: session, editor: editor, theme: theme)
        terminal = VirtualTerminal(size: size, showsColor: false)
        let app = self.app
        terminal.willReadInput = { [unowned self] in
            if waitsForJobs { app.jobs.waitUntilIdle() }
        }
        session.waitForBackgroundWork()
        try settle()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Presses `keys` in order and draws after each, as the real event loop does.
    func press(_ keys: Key...) throws {
        terminal.enqueue(keys)
        try runPending()
    }

    /// Types `text` one character at a time (control characters become control keys).
    func type(_ text: String) throws {
        terminal.type(text)
        try runPending()
    }

    /// Lets background counts finish and delivers them with a tick.
    func settle() throws {
        session.waitForBackgroundWork()
        terminal.enqueue(inputs: [.timeout])
        try runPending()
    }

    func resize(to size: Size) throws {
        terminal.resize(to: size)
        try runPending()
    }

    /// The screen as text lines.
    var screen: [String] { terminal.snapshot() }
    var text: String { screen.joined(separator: "\n") }
    var statusLine: String { screen.count >= 2 ? screen[screen.count - 2] : "" }
    var messageLine: String { screen.last ?? "" }

    /// Waits for the running job and draws its result, as the event loop's next tick would (without the tick's
    /// other work: background counts stay where they are).
    func finishJobs() throws {
        while app.jobs.isBusy {
            app.jobs.waitUntilIdle()
            app.collectJobs()
            var app = self.app
            try TerminalUI.run(app: &app, terminal: terminal)
        }
    }

    private func runPending() throws {
        var app = self.app
        try TerminalUI.run(app: &app, terminal: terminal)
        if waitsForJobs { try finishJobs() }
    }
}
