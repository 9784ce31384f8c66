import CoreDataModel
import Foundation
import StoreAccess

/// Shell completion from the store named on the command line: entity names, and key paths (comma-separated lists,
/// through relationships) of the entity named after it. Completion never prints an error; a store that does not
/// open completes nothing.
enum StoreCompletion {
    /// Entity names of the store on the command line.
    @Sendable static func entities(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let model = model(words) else { return [] }
        return model.entities.map(\.entityName).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Key paths of the entity on the command line, for `--keys`, `--sort`, `--group-by` and the like: the text
    /// after the last comma (and a leading `-` or `+`) is completed, through relationships at each `.`.
    @Sendable static func keyPaths(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let model = model(words) else { return [] }
        let entityName = positionals(words).dropFirst().first { model.entitiesByName[$0] != nil }
        guard let entityName, let entity = model.entitiesByName[entityName] else { return [] }
        return keyPaths(from: entity, completing: prefix)
    }

    static func keyPaths(from entity: NSEntityDescription, completing prefix: String) -> [String] {
        let listHead = prefix.lastIndex(of: ",").map { String(prefix[...$0]) } ?? ""
        var item = String(prefix.dropFirst(listHead.count))
        var sign = ""
        if let first = item.first, first == "-" || first == "+" { sign = String(first); item.removeFirst() }
        var components = item.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = components.removeLast()
        var current = entity
        for component in components {
            guard let relationship = current.relationshipsByName[component], let destination = relationship.destinationEntity else { return [] }
            current = destination
        }
        let path = components.map { $0 + "." }.joined()
        return current.propertiesByName.keys.sorted().filter { $0.hasPrefix(last) }.map { name in
            let isRelationship = current.relationshipsByName[name] != nil
            return listHead + sign + path + name + (isRelationship ? "." : "")
        }
    }

    /// The words that are not options or option values, after the subcommand.
    private static func positionals(_ words: [String]) -> [String] {
        var result: [String] = []
        var skipNext = false
        for word in words.dropFirst() {
            if skipNext { skipNext = false; continue }
            if word.hasPrefix("--") { skipNext = !word.contains("=") && !flagNames.contains(word); continue }
            if word.hasPrefix("-") && word.count > 1 { continue }
            result.append(word)
        }
        return Array(result.drop { !$0.hasSuffix(".sqlite") && !FileManager.default.fileExists(atPath: $0) })
    }

    /// Options that take no value, so the word after them is a positional.
    private static let flagNames: Set<String> = ["--yes", "--header", "--no-header", "--quiet", "--sql", "--edit", "--help", "--count"]

    private static func model(_ words: [String]) -> NSManagedObjectModel? {
        guard let store = positionals(words).first, FileManager.default.fileExists(atPath: store) else { return nil }
        let modelPath = words.firstIndex(of: "--model").flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil }
        return try? StoreSession(storePath: store, modelPath: modelPath).model
    }
}
