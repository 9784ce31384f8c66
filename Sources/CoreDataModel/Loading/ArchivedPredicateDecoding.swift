import PropertyListCoding

/// Turns archived `NSPredicate` and `NSExpression` objects (in compiled models and model caches) into their
/// canonical format strings.
package enum ArchivedPredicateDecoding {
    package static func predicateFormat(_ object: ArchivedObject) throws -> String {
        throw ModelError(reason: "archived predicates (\(object.className)) are not decodable yet")
    }

    package static func expressionFormat(_ object: ArchivedObject) throws -> String {
        throw ModelError(reason: "archived expressions (\(object.className)) are not decodable yet")
    }
}
