import Predicates
import Testing

/// Derived attributes hash their expression's canonical format, so these forms decide whether store hashes
/// reproduce (store format reference §10.4).
struct DerivationFormatTests {
    @Test(arguments: [
        ("pages.@count", "count:(pages)"),
        ("client_commande.@count", "count:(client_commande)"),
        ("now()", "now()"),
        ("uppercase:(name)", "uppercase:(name)"),
    ])
    func canonicalDerivationFormats(source: String, canonical: String) throws {
        #expect(try NSExpression(parsing: source).predicateFormat == canonical)
    }
}
