import CoreDataModel

/// Tab completion for predicates: key paths that walk through relationships (`chef.na` → `chef.name`), the
/// comparison operators and their `[cd]` modifiers, and the keywords of the grammar.
enum PredicateCompletion {
    static let operators = ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN"]
    static let comparisonSymbols = ["==", "!=", "<", "<=", ">", ">="]
    static let keywords = ["AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "SUBQUERY(", "TRUEPREDICATE", "FALSEPREDICATE",
                           "nil", "YES", "NO", "SELF", "@count", "@sum", "@avg", "@min", "@max"]
    static let modifiers = ["[c]", "[d]", "[cd]", "[n]"]

    /// Candidates for `word`, the word before the cursor; `before` is the line before that word. Inside a quoted
    /// string nothing is offered; right after a key path (`minutes `) the operators that can follow it are.
    static func candidates(for word: String, before: String = "", entity: NSEntityDescription) -> [String] {
        if isInsideQuotes(before) { return [] }
        // An operator being given its modifier: BEGINSWITH[ → BEGINSWITH[c], [cd], …
        if let bracket = word.firstIndex(of: "[") {
            let name = word[..<bracket].uppercased()
            guard operators.contains(name) || ["==", "!=", "="].contains(name) else { return [] }
            let typed = word[bracket...]
            return modifiers.filter { $0.hasPrefix(typed) }.map { word[..<bracket] + $0 }
        }
        if let previous = before.split(whereSeparator: { $0 == " " || $0 == "(" }).last,
           let type = keyPathType(String(previous), from: entity) {
            let upper = word.uppercased()
            let words = type == .stringAttributeType || type == nil ? operators : ["IN", "BETWEEN"]
            return (comparisonSymbols + words).filter { $0.hasPrefix(upper) }
        }
        var results = keyPaths(matching: word, from: entity)
        if !word.contains(".") {
            let upper = word.uppercased()
            results += (operators + keywords).filter { $0.uppercased().hasPrefix(upper) && !word.isEmpty }
        }
        return results
    }

    /// Whether `text` ends inside a quoted string (`"…` or `'…`, a backslash escaping the next character).
    static func isInsideQuotes(_ text: String) -> Bool {
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            }
        }
        return quote != nil
    }

    /// The attribute type a complete key path (`minutes`, `chef.name`, `ingredients.@count`) ends on: `.some(nil)`
    /// for a relationship, nil when `text` is not a key path of `entity`.
    private static func keyPathType(_ text: String, from entity: NSEntityDescription) -> NSAttributeType?? {
        var current = entity
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, component) in components.enumerated() {
            let isLast = index == components.count - 1
            if component.hasPrefix("@") {
                guard index > 0, keywords.contains(component) else { return nil }
                return .some(.integer64AttributeType)
            }
            if let attribute = current.attributesByName[component] {
                return isLast ? .some(attribute.attributeType) : nil
            }
            guard let relationship = current.relationshipsByName[component],
                  let destination = relationship.destinationEntity else { return nil }
            if isLast { return .some(nil) }
            current = destination
        }
        return nil
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
            guard let relationship = current.relationshipsByName[name], let destination = relationship.destinationEntity else {
                return [prefix + name]
            }
            // A relationship typed in full continues into its destination's keys; a to-one being typed completes
            // to `chef.`, which the editors leave without a space, so the key path goes on (issue 21).
            if name == last { return destination.propertiesByName.keys.sorted().map { prefix + name + "." + $0 } }
            return [prefix + name + (relationship.isToMany ? "" : ".")]
        }
    }
}
