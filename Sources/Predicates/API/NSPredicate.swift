import Foundation

/// A logical condition on an object, Apple's `NSPredicate` for Linux (which lacks format strings).
///
/// Declaring it here shadows Foundation's `NSPredicate` in code that imports both modules. The condition is
/// held as a ``PredicateNode`` value in ``predicateNode``; the subclasses ``NSComparisonPredicate`` and
/// ``NSCompoundPredicate`` present the same data with Apple's properties.
///
/// Deviation: Swift initializers cannot return a subclass, so `NSPredicate(format:)` makes an `NSPredicate`,
/// not an `NSComparisonPredicate`; use ``NSPredicate/predicate(for:)`` to get the typed subclass.
open class NSPredicate: NSObject, @unchecked Sendable {
    // Unchecked: the only stored state is an immutable Sendable value.
    /// The predicate's syntax tree.
    public let predicateNode: PredicateNode

    /// Wraps a syntax tree.
    public init(predicateNode: PredicateNode) {
        self.predicateNode = predicateNode
        super.init()
    }

    /// Parses `format`, substituting `arguments` in order for `%@`, `%K`, `%d` … conversions.
    ///
    /// Like Apple's initializer, a malformed format is a programmer error and stops the program with the
    /// error and a caret under the offending character; use ``init(parsing:argumentArray:)`` for untrusted text.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        do {
            try self.init(parsing: predicateFormat, argumentArray: (arguments ?? []).map { $0 as Any? })
        } catch {
            preconditionFailure("Unable to parse the format string: \(error.caretDiagnostic)")
        }
    }

    /// Parses `format` with variadic arguments (Swift's stand-in for Apple's `CVarArg...` initializer).
    public convenience init(format predicateFormat: String, _ arguments: Any?...) {
        do {
            try self.init(parsing: predicateFormat, argumentArray: arguments)
        } catch {
            preconditionFailure("Unable to parse the format string: \(error.caretDiagnostic)")
        }
    }

    /// Parses `format`, throwing a ``PredicateSyntaxError`` (with offset and caret diagnostic) when malformed.
    public convenience init(parsing predicateFormat: String, argumentArray arguments: [Any?] = []) throws(PredicateSyntaxError) {
        self.init(predicateNode: try PredicateParser.parsePredicate(predicateFormat, arguments: arguments))
    }

    /// A predicate that calls `block` with the evaluated object and the substitution variables.
    ///
    /// Like Apple's, a block predicate evaluates in memory only: a SQLite fetch rejects it.
    public convenience init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        self.init(predicateNode: .block(PredicateBlock(block)))
    }

    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    public convenience init(value: Bool) {
        self.init(predicateNode: .constant(value))
    }

    /// The predicate presented by the subclass that matches its kind: ``NSComparisonPredicate`` for a
    /// comparison, ``NSCompoundPredicate`` for `AND`/`OR`/`NOT`, `NSPredicate` for a constant.
    public static func predicate(for node: PredicateNode) -> NSPredicate {
        switch node {
        case .constant, .block: NSPredicate(predicateNode: node)
        case .comparison: NSComparisonPredicate(predicateNode: node)
        case .and, .or, .not: NSCompoundPredicate(predicateNode: node)
        }
    }

    /// Apple's canonical format string, which parses back to an equal predicate.
    public var predicateFormat: String { predicateNode.predicateFormat }

    /// Whether the predicate holds for `object`.
    ///
    /// An unbound variable, an invalid regular expression or an unsupported function stops the program, as
    /// Apple raises an exception; use ``evaluateOrThrow(with:substitutionVariables:)`` to handle them.
    open func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    /// Whether the predicate holds for `object` with `$variables` bound to `substitutionVariables`.
    open func evaluate(with object: Any?, substitutionVariables: [String: Any]?) -> Bool {
        do {
            return try evaluateOrThrow(with: object, substitutionVariables: substitutionVariables ?? [:])
        } catch {
            preconditionFailure("Cannot evaluate predicate \(predicateFormat): \(error.reason)")
        }
    }

    /// Whether the predicate holds, reporting evaluation failures as errors.
    public func evaluateOrThrow(
        with object: Any?, substitutionVariables: [String: Any] = [:]
    ) throws(PredicateEvaluationError) -> Bool {
        try PredicateEvaluator(evaluatedObject: object, variables: substitutionVariables).evaluate(predicateNode)
    }

    /// A copy with each `$variable` named in `variables` replaced by its value; others stay variables.
    open func withSubstitutionVariables(_ variables: [String: Any]) -> NSPredicate {
        NSPredicate.predicate(for: predicateNode.substitutingVariables(variables.mapValues { ConstantValue(any: $0) }))
    }

    /// The canonical format string.
    open override var description: String { predicateFormat }

    /// Equal when the syntax trees are equal (so `a = 1` equals `a == 1`).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return predicateNode == other.predicateNode
    }

    /// Consistent with ``isEqual(_:)``.
    open override var hash: Int { predicateNode.hashValue }
}
