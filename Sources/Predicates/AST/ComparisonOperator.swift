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
