/// Reserved words, matched case-insensitively.
enum Keyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", `in` = "IN", not = "NOT", all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case null = "NULL", `nil` = "NIL", `self` = "SELF", `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY", subquery = "SUBQUERY", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case function = "FUNCTION", ternary = "TERNARY", union = "UNION", intersect = "INTERSECT", minus = "MINUS"
    case fetch = "FETCH"

    /// Keywords by their upper-case spelling.
    static let byUppercasedSpelling: [String: Keyword] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// Whether `word` is reserved, so that it must be written `#word` as a key.
    static func isReserved(_ word: String) -> Bool { byUppercasedSpelling[word.uppercased()] != nil }
}
