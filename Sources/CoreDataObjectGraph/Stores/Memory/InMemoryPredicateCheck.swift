import CoreDataModel
import Predicates

/// Refuses a predicate whose key path names a property the fetched entity does not have, before the in-memory engine
/// evaluates it. Evaluated on cache nodes, such a key reads as nil and the fetch would silently match nothing; Apple
/// raises ("keypath … not found in entity"), as our SQLite store does through its compiler.
///
/// Only key paths rooted at the evaluated object are checked, and only as far as the model says what they lead to:
/// through relationships to their destinations, stopping at an attribute (what follows is key-value coding on its
/// value), a collection operator (`@count`, `@avg.minutes`) or anything rooted at a variable (`SUBQUERY`'s `$x`).
struct InMemoryPredicateCheck {
    let entity: NSEntityDescription

    func check(_ predicate: PredicateNode) throws {
        try check(predicate, whole: predicate)
    }

    private func check(_ node: PredicateNode, whole: PredicateNode) throws {
        switch node {
        case .constant, .block:
            return
        case .comparison(let comparison):
            try check(comparison.left, whole: whole)
            try check(comparison.right, whole: whole)
        case .and(let subpredicates), .or(let subpredicates):
            for subpredicate in subpredicates { try check(subpredicate, whole: whole) }
        case .not(let subpredicate):
            try check(subpredicate, whole: whole)
        }
    }

    private func check(_ expression: ExpressionNode, whole: PredicateNode) throws {
        switch expression {
        case .constant, .evaluatedObject, .variable, .anyKey:
            return
        case .keyPath(let path):
            try checkKeyPath(path, whole: whole)
        case .keyPathOnExpression(let base, _), .index(let base, _):
            try check(base, whole: whole)
        case .function(_, let arguments), .aggregate(let arguments):
            for argument in arguments { try check(argument, whole: whole) }
        case .customFunction(let receiver, _, let arguments):
            try check(receiver, whole: whole)
            for argument in arguments { try check(argument, whole: whole) }
        case .setOperation(let left, _, let right):
            try check(left, whole: whole)
            try check(right, whole: whole)
        case .subquery(let collection, _, _):
            // The subquery's own predicate is about its variable's objects, checked when evaluated.
            try check(collection, whole: whole)
        case .conditional(let condition, let whenTrue, let whenFalse):
            try check(condition, whole: whole)
            try check(whenTrue, whole: whole)
            try check(whenFalse, whole: whole)
        case .fetch(let request, let context, _):
            try check(request, whole: whole)
            try check(context, whole: whole)
        }
    }

    private func checkKeyPath(_ path: String, whole: PredicateNode) throws {
        var current = entity
        for name in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            if name.hasPrefix("@") || name.lowercased() == "self" { return }
            guard let property = Self.property(named: name, in: current) else {
                // A store read without its model (an XML store's inferred model) spells properties in lower case.
                let sameLetters = current.properties.map(\.name).first { $0.lowercased() == name.lowercased() }
                throw CoreDataError(.persistentStoreOperation,
                                    "keypath \(name) not found in entity \(current.entityName) (in \(path), in the predicate "
                                        + "\(whole.predicateFormat))" + (sameLetters.map { "; did you mean \($0)?" } ?? ""))
            }
            guard let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity else {
                return
            }
            current = destination
        }
    }

    /// `name` on `entity`, or on one of its subentities (a fetch that includes them evaluates their objects too).
    private static func property(named name: String, in entity: NSEntityDescription) -> NSPropertyDescription? {
        if let property = entity.propertiesByName[name] { return property }
        for subentity in entity.subentities {
            if let property = Self.property(named: name, in: subentity) { return property }
        }
        return nil
    }
}
