extension PredicateNode {
    /// Apple's canonical format string: `==` for `=`, operators in upper case with their options
    /// (`BEGINSWITH[cd]`), nested compounds in parentheses, `NOT` without parentheses over a comparison.
    public var predicateFormat: String {
        switch self {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            return comparison.predicateFormat
        case .and(let subpredicates):
            return Self.format(subpredicates, joinedBy: "AND", whenEmpty: "TRUEPREDICATE")
        case .or(let subpredicates):
            return Self.format(subpredicates, joinedBy: "OR", whenEmpty: "FALSEPREDICATE")
        case .not(let subpredicate):
            return "NOT " + subpredicate.formatAsOperand
        case .block(let block):
            return block.predicateFormat
        }
    }

    private static func format(_ subpredicates: [PredicateNode], joinedBy word: String, whenEmpty: String) -> String {
        if subpredicates.isEmpty { return whenEmpty }
        if subpredicates.count == 1 { return subpredicates[0].predicateFormat }
        return subpredicates.map(\.formatAsOperand).joined(separator: " \(word) ")
    }

    /// The format with parentheses when this is an `AND` or `OR` of several subpredicates.
    private var formatAsOperand: String {
        switch self {
        case .and(let subpredicates) where subpredicates.count > 1, .or(let subpredicates) where subpredicates.count > 1:
            return "(" + predicateFormat + ")"
        default:
            return predicateFormat
        }
    }
}

extension ComparisonNode {
    /// `[ANY |ALL ]left OP[options] right`.
    public var predicateFormat: String {
        let prefix: String
        switch modifier {
        case .direct: prefix = ""
        case .any: prefix = "ANY "
        case .all: prefix = "ALL "
        }
        return prefix + left.predicateFormat + " " + operatorType.formatSymbol + options.formatSuffix + " "
            + right.predicateFormat
    }
}
