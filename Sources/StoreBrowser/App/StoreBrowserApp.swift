import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess
import TerminalUI

/// The store browser as a `TerminalApp`: an entity list, a batched object table, a detail pane on a child context,
/// prompts, overlays and a status line, all drawn into a `Screen` from its state. It never touches a terminal, so
/// tests drive it through a `VirtualTerminal` and the real binary runs it on `CursesTerminal`.
///
/// It runs on one thread; every context call goes through `BrowserSession.perform` or the detail pane's child.
public final class StoreBrowserApp: TerminalApp {
    package enum Focus: Equatable, Sendable {
        case entities, table
    }

    package let session: BrowserSession
    package let keyMap: KeyMap
    package var theme: Theme
    let editor: any LineEditor
    let savedPredicates: SavedPredicates

    package internal(set) var focus: Focus = .table
    /// The row selected in the entity list.
    package internal(set) var entitySelection = 0
    var entityTop = 0
    var location: BrowserLocation
    var backStack: [BrowserLocation] = []
    var forwardStack: [BrowserLocation] = []
    var overlay: BrowserOverlay?
    var prompt: PromptPurpose?
    /// The filter prompt opened on the current filter, not yet touched: a typed character replaces it.
    var prefillSelected = false
    /// The message line: the last result or error.
    package internal(set) var message: String?
    package internal(set) var messageIsError = false
    /// Another connection committed to the store since the last fetch.
    package internal(set) var storeChangedOutside = false
    var size = Size(columns: 80, rows: 24)
    /// The export in progress, advanced on every tick.
    var exportJob: ExportJob?
    /// Set when a command asked to quit after it finished (`:wq` with nothing to write).
    var quitRequested = false
    /// Re-fetch by itself when another process writes the store (`--auto-refresh`, `:autorefresh on`).
    var autoRefresh: Bool
    /// Where the panes went at the last render; commands use it for page sizes.
    var layout = BrowserLayout(size: Size(columns: 80, rows: 24), showsEntities: true)
    /// The columns chosen per entity (`:columns`, `-`, `c`), for its later tables.
    var columnSets: [String: [String]] = [:]
    /// Set by `hidingEmptyColumns` for the message line.
    var emptyColumnsNote: String?
    /// Long work running off the event loop (`StoreBrowserApp+LongWork`).
    package let jobs = BrowserJobs()

    /// Opens the browser on `session`, on the entity and predicate of its options (or the first entity).
    public init(session: BrowserSession, editor: any LineEditor, theme: Theme = .colored, keyMap: KeyMap = .standard) throws {
        self.session = session
        self.editor = editor
        self.theme = theme
        self.keyMap = keyMap
        self.savedPredicates = SavedPredicates(directory: session.options.stateDirectory)
        self.autoRefresh = session.options.refreshesAutomatically
        let entities = session.entityTree.map(\.entity)
        guard !entities.isEmpty else { throw StoreAccessError("\(session.options.storePath): the model has no entities") }
        let entity: NSEntityDescription
        if let name = session.options.entityName {
            entity = try session.store.entity(named: name)
        } else {
            entity = entities.first { !$0.isAbstract } ?? entities[0]
        }
        let filter = try StoreSession.predicate(session.options.predicateFormat)
        columnSets = Self.rememberedColumns(of: session)
        var query = TableQuery(entity: entity, filter: filter)
        if let keys = columnSets[entity.entityName] { query.columnKeys = keys }
        location = BrowserLocation(table: try session.perform {
            try TableModel(query: query, context: session.context, batchSize: session.options.batchSize, labels: session.labels)
        })
        entitySelection = entities.firstIndex { $0 === entity } ?? 0
        editor.completer = { [weak self] line, word in self?.completions(line: line, word: word) ?? [] }
        startCounting(location.table)
        if let note = session.store.recoveryNote { show(note) }
        if let refusal = session.editRefusal { show(refusal) }
    }

    /// The table on screen.
    package var table: TableModel { location.table }
    /// The detail pane's object, when open.
    package var detail: DetailModel? { location.detail }

    // MARK: TerminalApp

    public func resize(to newSize: Size) {
        size = newSize
        layout = BrowserLayout(size: newSize, showsEntities: showsEntityPane, entityListWidth: entityListWidth)
    }

    public var tickInterval: Duration? {
        // An export goes on step after step: the next starts as soon as the last one's rows are in.
        if exportJob != nil { return jobs.isBusy ? .milliseconds(10) : .zero }
        // A running job redraws its spinner every tick.
        return session.counter.isBusy || jobs.isBusy ? .milliseconds(100) : .seconds(1)
    }

    // Each key, tick and frame is one event, as a turn of an app's run loop is: the objects the library hands out
    // while it is handled are let go when it ends, as Apple's autoreleased objects are (see `ObjectLifetimeScope`).
    // Without this, the main thread's outermost scope would keep up to its bound of them for the whole session.

    public func tick() -> TerminalAction {
        ObjectLifetimeScope.withNewScope { handleTick() }
    }

    public func handle(_ key: Key) -> TerminalAction {
        ObjectLifetimeScope.withNewScope { handleKey(key) }
    }

    private func handleTick() -> TerminalAction {
        collectJobs()
        collectBackgroundResults()
        advanceExport()
        if session.watcher?.storeChanged() == true, !storeChangedOutside {
            storeChangedOutside = true
            if autoRefresh && !jobs.isBusy && !session.context.performAndWait({ session.context.hasChanges }) {
                refresh()
            } else {
                show("the store changed on disk: r re-fetches")
            }
        }
        return .redraw
    }

    private func handleKey(_ key: Key) -> TerminalAction {
        defer { syncPendingInserts() }
        collectJobs()
        collectBackgroundResults()
        if key == .resize { return .redraw }
        // Ctrl-C cancels long work as Esc does, whatever is open (the terminal delivers it as a key while a job runs).
        if key == .control("c"), cancelJob() { return .redraw }
        if prompt != nil { return handlePromptKey(key) }
        if let overlay {
            // A question or a pane whose answer writes or opens a table waits while a job holds the store.
            if case .text = overlay {} else if key != .escape, let running = jobs.running, running.usesStore {
                show("busy \(running.title): wait, or Esc then Esc cancels")
                return .redraw
            }
            return handleOverlayKey(key, overlay)
        }
        let scope: KeyScope = location.detail != nil ? .detail : (focus == .entities ? .entities : .table)
        guard let command = keyMap.command(for: key, in: scope) else {
            if case .mouse(let event) = key { return handleMouse(event) }
            return .redraw
        }
        return perform(command)
    }

    /// Runs a command; the key map's entry point.
    package func perform(_ command: BrowserCommand) -> TerminalAction {
        if let refusal = refusalWhileWorking(command) {
            show(refusal)
            return .redraw
        }
        clearMessage()
        do {
            return try execute(command)
        } catch {
            show(error: error)
            return .redraw
        }
    }

    /// Brings the pending inserts of every table on the stacks up to date with the browser's context.
    func syncPendingInserts() {
        let tables = ([location] + backStack + forwardStack).map(\.table)
        session.perform {
            for table in tables { table.syncPendingInserts(in: session.context) }
        }
    }

    // MARK: Messages

    func show(_ text: String) {
        message = text
        messageIsError = false
    }

    func show(error: any Error) {
        message = ValidationReport.message(for: error)
        messageIsError = true
    }

    func clearMessage() {
        message = nil
        messageIsError = false
    }

    // MARK: Background results

    func startCounting(_ table: TableModel) {
        if table.knownCount == nil {
            table.countTicket = session.counter.start(.objects(entity: table.query.entity.entityName,
                                                               predicate: table.query.predicate?.predicateNode))
        }
        // After the count: the counter runs its jobs in order, and the status line waits for the count.
        session.decideTextOrder(of: table.query.entity)
    }

    func collectBackgroundResults() {
        for (ticket, outcome) in session.collectCounts() {
            let tables = ([location] + backStack + forwardStack).map(\.table)
            guard let table = tables.first(where: { $0.countTicket == ticket }) else { continue }
            table.countTicket = nil
            switch outcome {
            case .count(let count): session.perform { table.adoptCount(count) }
            case .failed(let reason): show("counting failed: \(reason)")
            case .cancelled, .entityCounts, .textOrder: break
            }
        }
    }
}
