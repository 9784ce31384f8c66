import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess
import TerminalText

/// `coredata diff A B`: the objects added, removed and changed between two stores of one model, per entity.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two stores of one model: objects added, removed and changed, per entity.",
        discussion: """
            Objects are matched by primary key, or by the value of --key ATTR in the entities that have that \
            attribute (its values must be unique there). Attributes compare by value, relationships by the primary \
            keys they lead to. Each entity's objects of one store are held in memory while it is compared. Typical \
            use: after a migration or an app run, against a copy taken before. With --wal, one store is compared \
            with itself: its main file alone (the state of its last checkpoint) against the main file with its -wal \
            (the state every reader sees), that is what a checkpoint would fold into the main file. Both are read from \
            copies in a temporary folder: the store, its -wal and -shm are never opened, checkpointed or changed \
            (copy them while no app is writing, or the copies may not match). Examples:
              coredata diff Before.sqlite After.sqlite
              coredata diff Before.sqlite After.sqlite --entity Recipe --key name --format json
              coredata diff App.sqlite --wal
            """)

    @Argument(help: "The first store (the old state); with --wal, the one store.", completion: .file(extensions: ["sqlite"])) var first: String
    @Argument(help: "The second store (the new state); none with --wal.", completion: .file(extensions: ["sqlite"])) var second: String?
    @Flag(help: "Compare the store's main file alone (its last checkpoint) with the main file and its -wal.") var wal = false
    @Option(help: "A model to read both stores with instead of the ones they carry.") var model: String?
    @Option(help: "The type of both stores: sqlite, xml, binary or a registered custom type; detected from each file when not given.")
    var type: String?
    @Option(help: "Compare only this entity (repeatable).") var entity: [String] = []
    @Option(help: "Match objects by this attribute instead of the primary key, in the entities that have it.") var key: String?
    @Option(help: "Output format: table or json.") var format: DiffFormat = .table
    @OptionGroup var global: GlobalOptions

    enum DiffFormat: String, ExpressibleByArgument, CaseIterable { case table, json }

    struct EntityDifference {
        var entity: String
        var added: [EntitySnapshot.Object] = []
        var removed: [EntitySnapshot.Object] = []
        var changed: [(key: String, old: EntitySnapshot.Object, new: EntitySnapshot.Object, properties: [String])] = []
        var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    func validate() throws {
        if wal, let second {
            throw ValidationError("--wal compares one store with its own -wal; give one store, not \(first) and \(second)")
        }
        if !wal, second == nil {
            throw ValidationError("give two stores to compare, or one store and --wal")
        }
    }

    func run() throws {
        global.apply()
        let kind: StoreKind?
        do {
            kind = try type.map(StoreKind.init(typeName:))
        } catch {
            throw CommandFailure(wrapping: error)
        }
        guard wal else { return try compare(first, second ?? "", old: first, new: second ?? "", kind: kind) }
        let snapshots = try WALSnapshots(storePath: first)
        defer { snapshots.remove() }
        if snapshots.walByteCount == 0 {
            StoreNotes.report("\(first) has no -wal with data: its main file holds every committed transaction")
        }
        try compare(snapshots.checkpointedPath, snapshots.currentPath, old: "\(first) without its -wal",
                    new: "\(first) with its -wal", kind: kind)
    }

    /// Compares the stores at `oldPath` and `newPath`, named `first` and `second` in messages.
    private func compare(_ oldPath: String, _ newPath: String, old first: String, new second: String,
                         kind: StoreKind?) throws {
        let old = try StoreSession(storePath: oldPath, modelPath: model, kind: kind)
        StoreNotes.report(old.recoveryNote)
        let new = try StoreSession(storePath: newPath, modelPath: model, kind: kind)
        StoreNotes.report(new.recoveryNote)
        let differing = old.model.entities.map(\.entityName).filter { name in
            new.model.entitiesByName[name]?.versionHash != old.model.entitiesByName[name]?.versionHash
        } + new.model.entities.map(\.entityName).filter { old.model.entitiesByName[$0] == nil }
        guard differing.isEmpty else {
            throw CommandFailure("\(first) and \(second) are not stores of one model: \(Set(differing).sorted().joined(separator: ", ")) differ; migrate one first, or pass --model")
        }
        let names = entity.isEmpty ? old.model.entities.map(\.entityName).sorted() : entity
        var differences: [EntityDifference] = []
        for name in names {
            let description = try old.entity(named: name)
            let properties = description.allProperties.filter { !$0.isTransient }.map(\.name).sorted()
            let matchKey = key.flatMap { description.attributesByName[$0] != nil ? $0 : nil }
            let before = try EntitySnapshot(session: old, entity: description, properties: properties, key: matchKey)
            let after = try EntitySnapshot(session: new, entity: description, properties: properties, key: matchKey)
            for (snapshot, path) in [(before, first), (after, second)] where !snapshot.duplicateKeys.isEmpty {
                throw CommandFailure("--key \(matchKey ?? ""): \(name) in \(path) has several objects with \(matchKey ?? "") = \(snapshot.duplicateKeys[0]); choose a unique attribute")
            }
            var difference = EntityDifference(entity: name)
            for matched in before.objects.keys.sorted(by: Self.keyOrder) {
                let was = before.objects[matched]!
                guard let now = after.objects[matched] else { difference.removed.append(was); continue }
                let changed = properties.filter { was.values[$0] != now.values[$0] }
                if !changed.isEmpty { difference.changed.append((matched, was, now, changed)) }
            }
            for matched in after.objects.keys.sorted(by: Self.keyOrder) where before.objects[matched] == nil {
                difference.added.append(after.objects[matched]!)
            }
            differences.append(difference)
        }
        var output = format == .json ? json(differences) : table(differences)
        if isatty(STDOUT_FILENO) != 0 {
            output = format == .json ? TerminalSanitizer.escapeForJSON(output) : TerminalSanitizer.sanitize(output, layout: .multiLine)
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    /// Primary keys in numeric order (`p2` before `p10`), other keys as text.
    static func keyOrder(_ left: String, _ right: String) -> Bool {
        if left.hasPrefix("p"), right.hasPrefix("p"), let l = Int64(left.dropFirst()), let r = Int64(right.dropFirst()) { return l < r }
        return left < right
    }

    private func table(_ differences: [EntityDifference]) -> String {
        var lines: [String] = []
        for difference in differences {
            lines.append("\(difference.entity): \(difference.added.count) added, \(difference.removed.count) removed, \(difference.changed.count) changed")
            for object in difference.added { lines.append("  + p\(object.primaryKey)  \(Self.line(object.label))") }
            for object in difference.removed { lines.append("  - p\(object.primaryKey)  \(Self.line(object.label))") }
            for change in difference.changed {
                let parts = change.properties.map { "\($0): \(Self.line(change.old.values[$0] ?? "")) → \(Self.line(change.new.values[$0] ?? ""))" }
                lines.append("  ~ p\(change.new.primaryKey)  \(Self.line(change.new.label))  " + parts.joined(separator: "; "))
            }
        }
        let total = differences.reduce(0) { $0 + $1.added.count + $1.removed.count + $1.changed.count }
        lines.append(total == 0 ? "no differences" : "\(total) difference\(total == 1 ? "" : "s")")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line of a table: line breaks and controls made visible wherever the table goes.
    private static func line(_ text: String) -> String {
        TerminalSanitizer.sanitize(text, layout: .singleLine)
    }

    private func json(_ differences: [EntityDifference]) -> String {
        func object(_ object: EntitySnapshot.Object) -> [String: Any] {
            ["primaryKey": object.primaryKey, "label": object.label, "values": object.json]
        }
        let entities: [[String: Any]] = differences.map { difference in
            [
                "entity": difference.entity,
                "added": difference.added.map(object),
                "removed": difference.removed.map(object),
                "changed": difference.changed.map { change -> [String: Any] in
                    var properties: [String: Any] = [:]
                    for name in change.properties {
                        properties[name] = ["from": change.old.json[name] ?? NSNull(), "to": change.new.json[name] ?? NSNull()]
                    }
                    return ["key": change.key, "primaryKey": change.new.primaryKey, "label": change.new.label, "changes": properties]
                },
            ]
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["entities": entities], options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
