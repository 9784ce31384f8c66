import CoreDataModel

/// Tab completion for predicates: key paths that walk through relationships (`chef.na` → `chef.name`), the
/// comparison operators and their `[cd]` modifiers, and the keywords of the grammar.
enum PredicateCompletion {
    static let operators = ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN"]
    static let keywords = ["AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "SUBQUERY(", "TRUEPREDICATE", "FALSEPREDICATE",
                           "nil", "YES", "NO", "SELF", "@count", "@sum", "@avg", "@min", "@max"]
    static let modifiers = ["[c]", "[d]", "[cd]", "[n]"]

    static func candidates(for word: String, entity: NSEntityDescription) -> [String] {
        // An operator being given its modifier: BEGINSWITH[ → BEGINSWITH[c], [cd], …
        if let bracket = word.firstIndex(of: "[") {
            let name = word[..<bracket].uppercased()
            guard operators.contains(name) || ["==", "!=", "="].contains(name) else { return [] }
            let typed = word[bracket...]
            return modifiers.filter { $0.hasPrefix(typed) }.map { word[..<bracket] + $0 }
        }
        var results = keyPaths(matching: word, from: entity)
        if !word.contains(".") {
            let upper = word.uppercased()
            results += (operators + keywords).filter { $0.uppercased().hasPrefix(upper) && !word.isEmpty }
        }
        return results
    }

    /// Key paths starting with `word`: the properties of the entity reached by the part before the last dot.
    private static func keyPaths(matching word: String, from entity: NSEntityDescription) -> [String] {
        var components = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = components.removeLast()
        var current = entity
        for component in components {
            guard let relationship = current.relationshipsByName[component.hasPrefix("@") ? "" : component],
                  let destination = relationship.destinationEntity else { return [] }
            current = destination
        }
        let prefix = components.isEmpty ? "" : components.joined(separator: ".") + "."
        return current.propertiesByName.keys.filter { $0.hasPrefix(last) }.sorted().flatMap { name -> [String] in
            // A relationship typed in full continues into its destination's keys. (A lone "chef." would get the
            // space editors add after a single match, ending the key path.)
            guard name == last, let destination = current.relationshipsByName[name]?.destinationEntity else {
                return [prefix + name]
            }
            return destination.propertiesByName.keys.sorted().map { prefix + name + "." + $0 }
        }
    }
}
