import Foundation

// Literal conformances keep tests and hand-built metadata dictionaries readable.

extension PropertyListValue: ExpressibleByStringLiteral {
    /// A `.string` from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    /// An `.integer` from a literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    /// A `.real` from a literal.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    /// A `.bool` from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    /// An `.array` from a literal.
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// A `.dictionary` from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
