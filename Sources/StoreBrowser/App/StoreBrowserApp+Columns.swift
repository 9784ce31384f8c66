import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess
import TerminalUI

/// The table's columns (issue 21): `:columns KEY,KEY` (key paths through relationships, collection operators such as
/// `ingredients.@count`), `c` to jump to a column by name or add a key path, `-` to hide the current column. The set
/// chosen for an entity is kept for its later tables, and for this store in the state directory.
extension StoreBrowserApp {
    static let columnPrompt = PromptKind(rawValue: "column")

    /// `:columns KEY,KEY`; an empty argument returns to the entity's own columns.
    func setColumns(_ argument: String) throws {
        let keys = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for key in keys where !isSpecialColumn(key) { try session.store.validateKeyPath(key, from: table.query.entity) }
        try showColumns(keys.isEmpty ? nil : keys)
        show(keys.isEmpty ? "\(table.query.entity.entityName) shows its own columns" : "columns: " + keys.joined(separator: ", "))
    }

    /// `-`: hides the current column (never the last one).
    func hideCurrentColumn() throws {
        guard table.columns.count > 1, table.columns.indices.contains(table.currentColumn) else {
            throw StoreAccessError("the last column cannot be hidden; :columns sets the columns")
        }
        let hidden = table.columns[table.currentColumn].key
        let column = table.currentColumn
        var keys = table.columns.map(\.key)
        keys.remove(at: column)
        try showColumns(keys)
        session.perform { table.selectColumn(min(column, table.columns.count - 1), width: tableWidth) }
        show("hid \(hidden); :columns alone shows every column again")
    }

    /// `c NAME`: selects the column NAME, or adds the key path NAME after the current column and selects it.
    func jumpToColumn(_ name: String) throws {
        let key = name.trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { return }
        if let index = table.columns.firstIndex(where: { $0.key == key }) {
            session.perform { table.selectColumn(index, width: tableWidth) }
            return
        }
        try session.store.validateKeyPath(key, from: table.query.entity)
        var keys = table.columns.map(\.key)
        let position = min(keys.count, table.currentColumn + 1)
        keys.insert(key, at: position)
        try showColumns(keys)
        session.perform { table.selectColumn(position, width: tableWidth) }
        show("added the column \(key)")
    }

    /// Tab completion for `c`: the columns shown, then key paths of the entity.
    func columnCompletions(for word: String) -> [String] {
        let shown = table.columns.map(\.key).filter { $0.hasPrefix(word) }
        let paths = PredicateCompletion.candidates(for: word, entity: table.query.entity).filter { $0.first?.isLetter == true && !shown.contains($0) }
        return shown + paths.filter { !PredicateCompletion.operators.contains($0) && !PredicateCompletion.keywords.contains($0) }
    }

    /// Rebuilds the table with `keys` as its columns (nil: the entity's own) and remembers them for the entity.
    private func showColumns(_ keys: [String]?) throws {
        let entity = table.query.entity.entityName
        columnSets[entity] = keys
        do {
            try session.savedColumns.save(keys?.joined(separator: ","), for: entity)
        } catch {
            show(error: error)
        }
        var query = table.query
        query.columnKeys = keys
        try replaceTable(with: query)
    }

    /// The remembered columns of `query`'s entity applied to it, unless it names its own.
    func withRememberedColumns(_ query: TableQuery) -> TableQuery {
        guard query.columnKeys == nil, let keys = columnSets[query.entity.entityName] else { return query }
        var query = query
        query.columnKeys = keys
        return query
    }

    /// Entities with more columns than this open with their empty columns hidden (Notes' ICNote has 19 of them).
    static let wideEntityColumns = 16
    /// ... when they have at most this many objects: finding an empty column reads every row.
    static let emptyColumnScanLimit = 100_000

    /// `query` with the entity's empty attribute columns left out, when the entity is very wide and its count is
    /// known and small enough; the message says how many were hidden. A column is empty when no object of the
    /// query has a value (one `!= nil` fetch with a limit of 1 per column, run by the store).
    func hidingEmptyColumns(_ query: TableQuery) -> TableQuery {
        let columns = TableColumn.columns(for: query.entity)
        guard query.columnKeys == nil, columns.count > Self.wideEntityColumns,
              let count = session.entityCounts[query.entity.entityName], count <= Self.emptyColumnScanLimit else { return query }
        let empty: [String] = session.perform {
            columns.filter { column in
                guard case .attribute(let type) = column.kind, type != .transformableAttributeType else { return false }
                let request = NSFetchRequest<NSManagedObjectID>(entityName: query.entity.entityName)
                request.resultType = .managedObjectIDResultType
                let hasValue = Predicates.NSPredicate(format: "%K != nil", argumentArray: [column.key])
                request.predicate = query.predicate.map {
                    Predicates.NSCompoundPredicate(andPredicateWithSubpredicates: [$0, hasValue])
                } ?? hasValue
                request.fetchLimit = 1
                return (try? session.context.fetch(request))?.isEmpty == true
            }.map(\.key)
        }
        guard !empty.isEmpty, empty.count < columns.count else { return query }
        var query = query
        query.columnKeys = columns.map(\.key).filter { !empty.contains($0) }
        emptyColumnsNote = "hid \(empty.count) empty column\(empty.count == 1 ? "" : "s") of \(query.entity.entityName): :columns shows every column"
        return query
    }

    /// The column sets remembered for the session's store, each checked against the model (a set naming a key the
    /// model no longer has is dropped).
    static func rememberedColumns(of session: BrowserSession) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (name, text) in session.savedColumns.values() {
            guard let entity = session.model.entitiesByName[name] else { continue }
            let keys = text.split(separator: ",").map(String.init)
            let valid = keys.allSatisfy { key in
                (!entity.subentities.isEmpty && (key == "entity" || key == "(entity)"))
                    || (try? session.store.validateKeyPath(key, from: entity)) != nil
            }
            if valid && !keys.isEmpty { result[name] = keys }
        }
        return result
    }

    private func isSpecialColumn(_ key: String) -> Bool {
        !table.query.entity.subentities.isEmpty && (key == "entity" || key == "(entity)")
    }
}
