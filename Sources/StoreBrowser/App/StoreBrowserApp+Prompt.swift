import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import Predicates
import StoreAccess
import TerminalUI

extension StoreBrowserApp {
    static let filterPrompt = PromptKind.filter
    static let commandPrompt = PromptKind.command
    static let editPrompt = PromptKind(rawValue: "edit")

    /// The `:` commands, for the help overlay and for completion.
    package static let commandHelp: [String] = [
        "  :w  :write              write the changes to the store (shows them first)",
        "  :q  :quit  :q!  :wq     quit; :q! quits without writing",
        "  :edit  :readonly        allow editing (reopens the store read-write); back to read-only",
        "  :sql                    the SQL and bindings the current table runs",
        "  :sort KEY,-KEY          sort by key paths (- descending)",
        "  :filter PREDICATE       same as /",
        "  :entity NAME            open an entity's table",
        "  :save NAME  :load NAME  name the current filter; apply a named one",
        "  :predicates             list the named filters",
        "  :export csv|json PATH   write the current table (filter and sort applied) to a file",
        "  :autorefresh on|off     re-fetch by itself when another process writes the store",
        "  :columns KEY,KEY        the table's columns: key paths such as chef.name, ingredients.@count",
        "  :label ENTITY KEY       name ENTITY's objects by KEY in tables, pickers, F and exports (kept per store)",
        "  :undo  :redo  :refresh  :help",
    ]
    static let commandNames = ["w", "write", "q", "quit", "q!", "wq", "edit", "readonly", "sql", "sort", "filter", "entity",
                               "save", "load", "predicates", "export", "autorefresh", "label", "columns", "undo", "redo", "refresh", "help"]

    /// Opens `/` on the current filter as a selected text: the first character typed replaces it, any editing
    /// key (arrows, Backspace, Ctrl-A/E, Tab) keeps it for editing. Readline has no selection, so this follows a
    /// search field's pre-selected text instead (issue 21).
    func beginFilterPrompt() {
        let current = table.query.filter?.predicateFormat ?? ""
        beginPrompt(.filter, text: current)
        prefillSelected = !current.isEmpty
    }

    func beginPrompt(_ purpose: PromptPurpose, text: String) {
        prefillSelected = false
        prompt = purpose
        switch purpose {
        case .filter: editor.begin(Self.filterPrompt, initialText: text)
        case .command: editor.begin(Self.commandPrompt, initialText: text)
        case .editField: editor.begin(Self.editPrompt, initialText: text)
        case .column: editor.begin(Self.columnPrompt, initialText: text)
        }
    }

    /// The label drawn before the prompt's text.
    var promptLabel: String {
        switch prompt {
        case .filter: "/"
        case .command: ":"
        case .editField(let key): "\(key) = "
        case .column: "column: "
        case nil: ""
        }
    }

    func handlePromptKey(_ key: Key) -> TerminalAction {
        guard let purpose = prompt else { return .redraw }
        if prefillSelected {
            prefillSelected = false
            if case .character = key { editor.begin(Self.filterPrompt, initialText: "") }
        }
        switch editor.feed(key) {
        case .editing:
            return .redraw
        case .cancelled:
            prompt = nil
            clearMessage()
            return .redraw
        case .accepted(let line):
            prompt = nil
            clearMessage()
            do {
                return try accept(line, for: purpose)
            } catch {
                show(error: error)
                // The prompt stays open with the text intact, so the mistake can be fixed in place.
                beginPrompt(purpose, text: line)
                return .redraw
            }
        }
    }

    private func accept(_ line: String, for purpose: PromptPurpose) throws -> TerminalAction {
        switch purpose {
        case .filter:
            try applyFilter(line)
            return .redraw
        case .command:
            return try runCommand(line)
        case .editField:
            try location.detail?.setSelected(fromText: line, session: session.store)
            return .redraw
        case .column:
            try jumpToColumn(line)
            return .redraw
        }
    }

    /// Applies `format` as the table's filter (an empty line removes it). A syntax error throws with a caret.
    func applyFilter(_ format: String) throws {
        let predicate = try StoreSession.predicate(format)
        var query = table.query
        query.filter = predicate
        // Check the predicate compiles for this store before leaving the prompt, so the error points into it.
        _ = try sqlQuery(for: query)
        try replaceTableInBackground(with: query, title: "filtering \(table.query.entity.entityName)") { [self] in
            show(predicate == nil ? "filter removed" : "filter: \(predicate!.predicateFormat)")
        }
    }

    /// The SQL the store runs for `query`.
    func sqlQuery(for query: TableQuery) throws -> SQLQuery {
        do {
            return try PredicateSQLCompiler(model: session.model).fetch(
                entityName: query.entity.entityName, predicate: query.predicate?.predicateNode, sortDescriptors: query.sortDescriptors)
        } catch {
            throw StoreAccessError(error.description + "\n" + error.caretDiagnostic)
        }
    }

    // MARK: Commands

    private func runCommand(_ line: String) throws -> TerminalAction {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let name = trimmed.prefix { $0 != " " }
        let argument = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        switch name {
        case "": return .redraw
        case "w", "write": try confirmWrite(thenQuit: false)
        case "wq", "x": try confirmWrite(thenQuit: true)
        case "q", "quit": return perform(.quit)
        case "q!", "quit!": return .quit
        case "edit": try enableEditing()
        case "readonly": try disableEditing()
        case "sql": try showSQL()
        case "sort": try applySort(argument)
        case "filter": try applyFilter(argument)
        case "entity": try push(TableQuery(entity: try session.store.entity(named: argument)))
        case "save": try saveFilter(named: argument)
        case "load": try loadFilter(named: argument)
        case "predicates": showSavedFilters()
        case "export": try export(argument)
        case "autorefresh": try setAutoRefresh(argument)
        case "label": try setLabel(argument)
        case "columns": try setColumns(argument)
        case "undo": undo()
        case "redo": redo()
        case "refresh": refresh()
        case "help": return perform(.help)
        default:
            throw StoreAccessError(":\(name) is not a command; :help lists them")
        }
        return .redraw
    }

    private func showSQL() throws {
        let query = try sqlQuery(for: table.query)
        var lines = ["Filter: " + (table.query.predicate?.predicateFormat ?? "none"),
                     "Sort:   " + (table.query.sortKeys.isEmpty ? "none" : table.query.sortKeys.map(\.text).joined(separator: ", ")),
                     "", query.sql, ""]
        lines += query.bindings.enumerated().map { "  ?\($0.offset + 1) = \(SQLQuery.describe($0.element))" }
        lines += ["", "Batches load \(table.batchSize) rows at a time, continuing by keyset from the previous batch."]
        overlay = .text(title: "SQL", lines: lines, scroll: 0)
    }

    private func applySort(_ argument: String) throws {
        var query = table.query
        query.sortKeys = try argument.split(separator: ",").map { part in
            let key = part.trimmingCharacters(in: .whitespaces)
            let descending = key.hasPrefix("-")
            let name = descending || key.hasPrefix("+") ? String(key.dropFirst()) : key
            guard !name.isEmpty else { throw StoreAccessError(":sort has an empty key in \"\(argument)\"") }
            try session.store.validateKeyPath(name, from: query.entity)
            return SortKey(key: name, ascending: !descending)
        }
        _ = try sqlQuery(for: query)
        let order = query.sortKeys.map(\.text).joined(separator: ",")
        try replaceTableInBackground(with: query, title: "sorting \(query.entity.entityName) by \(order)")
    }

    private func saveFilter(named name: String) throws {
        guard !name.isEmpty else { throw StoreAccessError(":save needs a name") }
        guard let filter = table.query.filter else { throw StoreAccessError("there is no filter to save; / sets one") }
        try savedPredicates.save(filter.predicateFormat, named: name)
        show("saved filter \(name)")
    }

    private func loadFilter(named name: String) throws {
        guard let format = savedPredicates.all()[name] else {
            throw StoreAccessError("no filter named \"\(name)\"; :predicates lists them")
        }
        try applyFilter(format)
    }

    private func showSavedFilters() {
        let all = savedPredicates.all()
        let lines = all.isEmpty ? ["No named filters yet: / sets a filter, :save NAME names it."]
            : all.keys.sorted().map { "\($0)  \(all[$0]!)" }
        overlay = .text(title: "Named filters", lines: lines, scroll: 0)
    }

    /// `:label ENTITY KEY`: the display key of ENTITY's objects; the table is rebuilt to show it.
    private func setLabel(_ argument: String) throws {
        let words = argument.split(separator: " ").map(String.init)
        guard words.count == 2 else {
            let current = session.labels.key(for: table.query.entity).map { "\(table.query.entity.entityName) is labelled by \($0); " } ?? ""
            throw StoreAccessError(current + ":label takes an entity and one of its attributes, as in :label Chef email")
        }
        try session.setLabel(words[1], for: try session.store.entity(named: words[0]))
        let column = table.currentColumn
        try replaceTable(with: table.query)
        session.perform { table.selectColumn(column, width: tableWidth) }
        show("\(words[0]) objects are labelled by \(words[1])")
    }

    private func setAutoRefresh(_ argument: String) throws {
        switch argument {
        case "on": autoRefresh = true
        case "off": autoRefresh = false
        default: throw StoreAccessError(":autorefresh takes on or off")
        }
        show("automatic refresh \(argument)")
    }

    // MARK: Completion

    /// Tab completion (`line` is the text up to the cursor): in a filter, key paths through relationships, operators
    /// and modifiers; in a command,
    /// command names, then entity names, named filters or key paths for their arguments.
    func completions(line: String, word: String) -> [String] {
        switch prompt {
        case .filter:
            return PredicateCompletion.candidates(for: word, before: String(line.dropLast(word.count)), entity: table.query.entity)
        case .command:
            let words = line.split(separator: " ", omittingEmptySubsequences: false)
            // The line editors add the space after a single match themselves.
            if words.count <= 1 { return Self.commandNames.filter { $0.hasPrefix(word) } }
            switch words[0] {
            case "entity": return session.model.entities.map(\.entityName).filter { $0.hasPrefix(word) }.sorted()
            case "label":
                guard words.count == 3, let entity = try? session.store.entity(named: String(words[1])) else {
                    return words.count == 2 ? session.model.entities.map(\.entityName).filter { $0.hasPrefix(word) }.sorted() : []
                }
                return entity.allProperties.compactMap { $0 as? NSAttributeDescription }.map(\.name).filter { $0.hasPrefix(word) }
            case "load": return savedPredicates.all().keys.filter { $0.hasPrefix(word) }.sorted()
            case "filter":
                let before = line.dropLast(word.count).drop { $0 != " " }
                return PredicateCompletion.candidates(for: word, before: String(before), entity: table.query.entity)
            case "columns":
                let last = String(word.split(separator: ",", omittingEmptySubsequences: false).last ?? "")
                let head = word.dropLast(last.count)
                return PredicateCompletion.candidates(for: last, entity: table.query.entity).filter { $0.first?.isLetter == true }
                    .map { head + $0 }
            case "sort":
                return PredicateCompletion.candidates(for: word.hasPrefix("-") ? String(word.dropFirst()) : word,
                                                      entity: table.query.entity)
                    .map { word.hasPrefix("-") ? "-" + $0 : $0 }
            case "export": return ["csv", "json"].filter { $0.hasPrefix(word) }
            case "autorefresh": return ["on", "off"].filter { $0.hasPrefix(word) }
            default: return []
            }
        case .column:
            return columnCompletions(for: word)
        default:
            return []
        }
    }
}
