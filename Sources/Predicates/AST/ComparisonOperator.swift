/// The operator of a comparison, with the raw values of Apple's `NSComparisonPredicate.Operator`.
public enum ComparisonOperator: UInt, Sendable, Hashable, CaseIterable {
    case lessThan = 0
    case lessThanOrEqualTo = 1
    case greaterThan = 2
    case greaterThanOrEqualTo = 3
    case equalTo = 4
    case notEqualTo = 5
    case matches = 6
    case like = 7
    case beginsWith = 8
    case endsWith = 9
    case `in` = 10
    /// A comparison by an Objective-C selector; never produced by the parser and not evaluable on Linux.
    case customSelector = 11
    case contains = 99
    case between = 100

    /// The canonical spelling in a format string (`==`, `BEGINSWITH`, …).
    public var formatSymbol: String {
        switch self {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .customSelector: "FUNCTION"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        }
    }
}

/// How a comparison treats a collection on its left, with the raw values of `NSComparisonPredicate.Modifier`.
public enum ComparisonModifier: UInt, Sendable, Hashable, CaseIterable {
    /// Compare the left value itself.
    case direct = 0
    /// True when every element of the left collection satisfies the comparison (`ALL`).
    case all = 1
    /// True when some element satisfies it (`ANY`, `SOME`; `NONE` is `NOT ANY`).
    case any = 2
}

/// String comparison options, with the raw values of `NSComparisonPredicate.Options`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `[c]`: case folding.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic folding.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: the operands are already normalised; compare them literally (supersedes `[c]` and `[d]`).
    public static let normalized = ComparisonOptions(rawValue: 4)

    /// The bracketed suffix in a format string, `[cd]`, or the empty string.
    public var formatSuffix: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}

/// The kind of a compound predicate, with the raw values of `NSCompoundPredicate.LogicalType`.
public enum CompoundPredicateType: UInt, Sendable, Hashable, CaseIterable {
    case not = 0
    case and = 1
    case or = 2
}

/// The kind of an expression, with the raw values of Apple's `NSExpression.ExpressionType`.
public enum ExpressionType: UInt, Sendable, Hashable, CaseIterable {
    case constantValue = 0
    case evaluatedObject = 1
    case variable = 2
    case keyPath = 3
    case function = 4
    case unionSet = 5
    case intersectSet = 6
    case minusSet = 7
    case subquery = 13
    case aggregate = 14
    case anyKey = 15
    case block = 19
    case conditional = 20
}
