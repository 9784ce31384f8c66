/// The functions an expression may call, by Apple's selector names, with their argument counts.
public enum FunctionCatalog {
    /// The number of arguments a function takes.
    public enum Arity: Sendable, Equatable {
        case exactly(Int)
        /// One or more: a single collection argument, or the values themselves (`sum:(1, 2, 3)`).
        case oneOrMore
    }

    /// Every known function and its arity.
    public static let arities: [String: Arity] = {
        var table: [String: Arity] = ["now": .exactly(0), "random": .exactly(0)]
        for name in ["sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:"] {
            table[name] = .oneOrMore
        }
        for name in [
            "sqrt:", "log:", "ln:", "exp:", "floor:", "ceiling:", "abs:", "trunc:", "uppercase:", "lowercase:", "canonical:",
            "random:", "randomn:", "onesComplement:", "noindex:", "length:",
        ] {
            table[name] = .exactly(1)
        }
        for name in [
            "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:",
            "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
            "castObject:toType:", "objectFrom:withIndex:", "distanceToLocation:fromLocation:",
        ] {
            table[name] = .exactly(2)
        }
        return table
    }()

    /// The infix operator that prints a binary function (`add:to:` is `+`), with its binding strength.
    public static let infixOperators: [String: (symbol: String, precedence: Int)] = [
        "add:to:": ("+", 2), "from:subtract:": ("-", 2),
        "bitwiseAnd:with:": ("&", 2), "bitwiseOr:with:": ("|", 2), "bitwiseXor:with:": ("^", 2),
        "multiply:by:": ("*", 3), "divide:by:": ("/", 3),
        "raise:toPower:": ("**", 4),
    ]

    /// The function an infix symbol stands for.
    public static let functionsByInfixSymbol: [String: String] = Dictionary(
        uniqueKeysWithValues: infixOperators.map { ($0.value.symbol, $0.key) })

    /// The selector name for a call written without colons, `sum(x)` or `now()`; nil for an unknown name.
    public static func selectorName(forBareName name: String, argumentCount: Int) -> String? {
        if argumentCount == 0, arities[name] == .exactly(0) { return name }
        let withColon = name + ":"
        return arities[withColon] == nil ? nil : withColon
    }

    /// Whether `count` arguments suit the function `name`.
    public static func accepts(_ name: String, argumentCount count: Int) -> Bool {
        switch arities[name] {
        case .exactly(let n): count == n
        case .oneOrMore: count >= 1
        case nil: false
        }
    }
}
