import CoreDataModel
import Foundation
import KeyValueCoding
import Predicates

/// What identifies an ordered fetch for reuse by the next window of a batched fetch: the same entity, predicate,
/// order and table generation give the same nodes in the same order.
struct OrderKey: Hashable {
    var entity: ObjectIdentifier
    var predicate: PredicateNode?
    var sorts: [String]
    var includesSubentities: Bool
    var generation: Int
}

/// Stands for an object a predicate names that the store does not hold (unsaved, or of another store): it equals no node.
private final class AbsentObject: @unchecked Sendable {}

/// The fetch engine: which nodes a fetch returns and in which order, evaluated in memory.
extension InMemoryRowTable {
    /// The nodes `fetch` matches, in its order (sort descriptors, then primary key), before its offset and limit, with
    /// each node's sort-key values (where a keyset window continues). With `reusingOrder` (the windows of a batched
    /// fetch, which ask for the same order again and again), the last result is reused while the table is unchanged.
    func ordered(_ fetch: ResolvedFetch, reusingOrder: Bool = false) throws -> (nodes: [NSAtomicStoreCacheNode], keys: [[Any]]) {
        let key = OrderKey(entity: ObjectIdentifier(fetch.entity), predicate: fetch.predicate,
                           sorts: fetch.sortDescriptors.map(\.description), includesSubentities: fetch.includesSubentities,
                           generation: generation)
        if reusingOrder, let cachedOrder, cachedOrder.key == key { return (cachedOrder.nodes, cachedOrder.boundaries) }
        var nodes = nodes(of: fetch.entity, includesSubentities: fetch.includesSubentities)
        if let predicate = fetch.predicate {
            try InMemoryPredicateCheck(entity: fetch.entity).check(predicate)
            nodes = try filter(nodes, predicate)
        }
        var keys: [[Any]] = []
        if !fetch.sortDescriptors.isEmpty {
            let comparators = Self.comparators(fetch.sortDescriptors)
            var decorated = nodes.map { node in
                (node: node, keys: fetch.sortDescriptors.map { descriptor -> Any in
                    descriptor.key.flatMap { KeyValueLookup.value(of: node, forKeyPath: $0) } ?? NSNull()
                })
            }
            decorated.sort { lhs, rhs in
                Self.precedes(lhs.keys, lhs.node.objectID.primaryKey, rhs.keys, rhs.node.objectID.primaryKey, comparators)
            }
            nodes = decorated.map(\.node)
            keys = decorated.map(\.keys)
        }
        if reusingOrder { cachedOrder = (key, nodes, keys) }
        return (nodes, keys)
    }

    /// The nodes among `nodes` that match `predicate`, evaluated by the predicate module's evaluator on each node.
    func filter(_ nodes: [NSAtomicStoreCacheNode], _ predicate: PredicateNode) throws -> [NSAtomicStoreCacheNode] {
        let evaluatable = substitutingNodes(in: predicate)
        var evaluator = PredicateEvaluator(evaluatedObject: nil)
        var matching: [NSAtomicStoreCacheNode] = []
        do {
            for node in nodes {
                evaluator.evaluatedObject = node
                if try evaluator.evaluate(evaluatable) { matching.append(node) }
            }
        } catch {
            throw CoreDataError(.persistentStoreOperation,
                                "the predicate \(predicate.predicateFormat) cannot be evaluated on the store's objects: \(error.reason)",
                                underlyingError: error)
        }
        return matching
    }

    /// `count(for:)`: the matching nodes, the fetch's offset and limit applied.
    func count(_ fetch: ResolvedFetch) throws -> Int {
        var unordered = fetch
        unordered.sortDescriptors = []
        let total = try ordered(unordered).nodes.count
        let afterOffset = max(0, total - max(0, fetch.fetchOffset))
        return fetch.fetchLimit > 0 ? min(fetch.fetchLimit, afterOffset) : afterOffset
    }

    /// The rows of `nodes` from `offset`, at most `limit` of them (0: all).
    static func window<C: RandomAccessCollection>(_ nodes: C, offset: Int, limit: Int) -> C.SubSequence where C.Index == Int {
        let start = min(max(0, offset), nodes.count)
        let end = limit > 0 ? min(nodes.count, start + limit) : nodes.count
        return nodes[start..<end]
    }

    /// The range of positions a batched-fetch window covers in the fetch's order (`ordered` holds every node of the
    /// fetch, its own offset and limit not applied).
    func windowRange(_ fetch: ResolvedFetch, start: FetchWindowStart, limit: Int,
                     ordered: (nodes: [NSAtomicStoreCacheNode], keys: [[Any]])) -> Range<Int> {
        // The fetch's own window first: a batched fetch with a limit or offset pages within it.
        let base = Self.window(ordered.nodes.indices, offset: fetch.fetchOffset, limit: fetch.fetchLimit)
        let lower = base.startIndex, upper = base.endIndex
        let comparators = Self.comparators(fetch.sortDescriptors)
        func position(after boundary: SortBoundary) -> Int {
            // The first position whose row comes after the boundary (binary search: the nodes are in order).
            var low = lower, high = upper
            while low < high {
                let middle = (low + high) / 2
                let keys = ordered.keys.isEmpty ? [] : ordered.keys[middle]
                if Self.precedes(boundary.values, boundary.primaryKey, keys, ordered.nodes[middle].objectID.primaryKey, comparators) {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            return low
        }
        func position(before boundary: SortBoundary) -> Int {
            // The first position whose row is not before the boundary.
            var low = lower, high = upper
            while low < high {
                let middle = (low + high) / 2
                let keys = ordered.keys.isEmpty ? [] : ordered.keys[middle]
                if Self.precedes(keys, ordered.nodes[middle].objectID.primaryKey, boundary.values, boundary.primaryKey, comparators) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low
        }
        let count = max(0, limit)
        switch start {
        case .offset(let offset):
            let from = min(max(lower, lower + offset - fetch.fetchOffset), upper)
            return from..<min(upper, from + count)
        case .fromEnd(let offset):
            let end = max(lower, upper - max(0, offset))
            return max(lower, end - count)..<end
        case .after(let boundary):
            let from = position(after: boundary)
            return from..<min(upper, from + count)
        case .before(let boundary):
            let end = position(before: boundary)
            return max(lower, end - count)..<end
        }
    }

    // MARK: Order

    /// One comparator per sort descriptor, comparing the values the descriptor's key path reads.
    static func comparators(_ descriptors: [Predicates.NSSortDescriptor]) -> [Predicates.NSSortDescriptor] {
        descriptors.map { Predicates.NSSortDescriptor(key: nil, ascending: $0.ascending, comparison: $0.comparison) }
    }

    /// Whether the row with sort values `lhs` and primary key `lhsKey` comes before the other in the fetch's order.
    static func precedes(_ lhs: [Any], _ lhsKey: Int64, _ rhs: [Any], _ rhsKey: Int64,
                         _ comparators: [Predicates.NSSortDescriptor]) -> Bool {
        for (index, comparator) in comparators.enumerated() where index < lhs.count && index < rhs.count {
            switch comparator.compare(lhs[index], to: rhs[index]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return lhsKey < rhsKey
    }

    // MARK: Objects in predicates

    /// The predicate with every managed object and object ID among its constants replaced by the node that records it
    /// (or by an object equal to nothing, when the store has none), so that comparisons by identity hold in memory.
    func substitutingNodes(in predicate: PredicateNode) -> PredicateNode {
        switch predicate {
        case .constant, .block:
            return predicate
        case .comparison(var comparison):
            comparison.left = substitutingNodes(in: comparison.left)
            comparison.right = substitutingNodes(in: comparison.right)
            return .comparison(comparison)
        case .and(let subpredicates): return .and(subpredicates.map(substitutingNodes(in:)))
        case .or(let subpredicates): return .or(subpredicates.map(substitutingNodes(in:)))
        case .not(let subpredicate): return .not(substitutingNodes(in: subpredicate))
        }
    }

    func substitutingNodes(in expression: ExpressionNode) -> ExpressionNode {
        let substitute = { (node: ExpressionNode) in self.substitutingNodes(in: node) }
        switch expression {
        case .constant(let value): return .constant(substitutingNodes(in: value))
        case .evaluatedObject, .keyPath, .anyKey, .variable: return expression
        case .keyPathOnExpression(let base, let path): return .keyPathOnExpression(substitute(base), path)
        case .function(let name, let arguments): return .function(name, arguments.map(substitute))
        case .customFunction(let receiver, let selector, let arguments):
            return .customFunction(receiver: substitute(receiver), selector: selector, arguments: arguments.map(substitute))
        case .index(let collection, let selector):
            if case .at(let position) = selector { return .index(substitute(collection), .at(substitute(position))) }
            return .index(substitute(collection), selector)
        case .aggregate(let elements): return .aggregate(elements.map(substitute))
        case .setOperation(let left, let operation, let right): return .setOperation(substitute(left), operation, substitute(right))
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: substitute(collection), variable: variable, predicate: substitutingNodes(in: predicate))
        case .conditional(let condition, let whenTrue, let whenFalse):
            return .conditional(substitutingNodes(in: condition), substitute(whenTrue), substitute(whenFalse))
        case .fetch(let request, let context, let countOnly):
            return .fetch(request: substitute(request), context: substitute(context), countOnly: countOnly)
        }
    }

    private func substitutingNodes(in value: ConstantValue) -> ConstantValue {
        switch value {
        case .object(let object):
            let id: NSManagedObjectID
            switch object.value {
            case let managed as NSManagedObject: id = managed.objectID
            case let objectID as NSManagedObjectID: id = objectID
            default: return value
            }
            return .object(OpaqueObject(node(for: id) ?? AbsentObject() as AnyObject))
        case .array(let elements):
            return .array(elements.map(substitutingNodes(in:)))
        default:
            return value
        }
    }
}
