import Predicates

/// The canonical printed form of a derived attribute's expression, which its version hash is computed from.
///
/// Core Data prints key-path collection operators in function form: `pages.@count` becomes `count:(pages)`.
package enum DerivationExpressionFormat {
    /// Parses `expression` as Xcode writes it and returns Apple's canonical form; throws the parse error.
    package static func canonical(_ expression: String) throws(PredicateSyntaxError) -> String {
        try NSExpression(parsing: expression).predicateFormat
    }
}
