import Foundation

/// `AND`, `OR` or `NOT` of other predicates, Apple's `NSCompoundPredicate`.
open class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    /// Apple's logical type (`not` 0, `and` 1, `or` 2).
    public typealias LogicalType = CompoundPredicateType

    /// Wraps an `.and`, `.or` or `.not` node; any other node is a programmer error.
    public override init(predicateNode: PredicateNode) {
        switch predicateNode {
        case .and, .or, .not: break
        default: preconditionFailure("NSCompoundPredicate needs AND, OR or NOT, got \(predicateNode.predicateFormat)")
        }
        super.init(predicateNode: predicateNode)
    }

    /// Combines `subpredicates` (`NSPredicate`s); `.not` takes exactly one.
    public convenience init(type: LogicalType, subpredicates: [NSPredicate]) {
        let nodes = subpredicates.map(\.predicateNode)
        switch type {
        case .and: self.init(predicateNode: .and(nodes))
        case .or: self.init(predicateNode: .or(nodes))
        case .not:
            precondition(nodes.count == 1, "a NOT predicate takes exactly one subpredicate")
            self.init(predicateNode: .not(nodes[0]))
        }
    }

    /// All of `subpredicates` hold (true when empty).
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// Some of `subpredicates` holds (false when empty).
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// `predicate` does not hold.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// `AND`, `OR` or `NOT`.
    public var compoundPredicateType: LogicalType {
        switch predicateNode {
        case .or: .or
        case .not: .not
        default: .and
        }
    }

    /// The subpredicates, each presented by its matching subclass (typed `[Any]` as in Apple's API).
    public var subpredicates: [Any] {
        switch predicateNode {
        case .and(let nodes), .or(let nodes): nodes.map { NSPredicate.predicate(for: $0) }
        case .not(let node): [NSPredicate.predicate(for: node)]
        default: []
        }
    }
}
