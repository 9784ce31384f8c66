import Foundation

/// The canonical printed form of a derived attribute's expression, which its version hash is computed from.
///
/// Core Data prints key-path collection operators in function form: `pages.@count` becomes `count:(pages)`.
package enum DerivationExpressionFormat {
    package static func canonical(_ expression: String) -> String {
        // INTERIM: replaced by NSExpression(format:).predicateFormat once the Predicates module lands.
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(".@count") {
            return "count:(\(trimmed.dropLast(".@count".count)))"
        }
        return trimmed
    }
}
