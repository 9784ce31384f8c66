import CoreDataModel
import Foundation
import KeyValueCoding
import Predicates

/// Dictionary results computed in memory, as the SQLite store computes them in SQL: the requested properties, key
/// paths and expressions per row; with aggregates (`count:`, `sum:`, `average:`, `min:`, `max:`) or
/// `propertiesToGroupBy`, one row per group; then `returnsDistinctResults`, `havingPredicate`, offset and limit.
extension InMemoryRowTable {
    func dictionaries(_ fetch: ResolvedFetch, _ shape: DictionaryShape) throws -> [FetchedDictionary] {
        var unlimited = fetch
        unlimited.fetchLimit = 0
        unlimited.fetchOffset = 0
        let nodes = try ordered(unlimited).nodes
        let names = shape.columns.map(\.name)
        let aggregated = shape.columns.contains { Self.aggregate(of: $0) != nil }
        var rows: [[Any?]] = []
        if shape.groupBy.isEmpty && !aggregated {
            rows = try nodes.map { node in try shape.columns.map { try value(of: $0, for: node, entity: fetch.entity) } }
        } else {
            // Groups in the order their first rows come (the fetch's sort), or by their keys when it has none.
            var groups: [[AnyHashable?]: [NSAtomicStoreCacheNode]] = [:]
            var order: [[AnyHashable?]] = []
            var keyValues: [[AnyHashable?]: [Any?]] = [:]
            for node in nodes {
                let values = try shape.groupBy.map { try value(of: $0, for: node, entity: fetch.entity) }
                let key = values.map(Self.hashable)
                if groups[key] == nil {
                    order.append(key)
                    keyValues[key] = values
                }
                groups[key, default: []].append(node)
            }
            if shape.groupBy.isEmpty && order.isEmpty { order = [[]] }
            if fetch.sortDescriptors.isEmpty, !shape.groupBy.isEmpty {
                let ascending = Predicates.NSSortDescriptor(key: nil, ascending: true)
                order.sort { lhs, rhs in
                    for (left, right) in zip(keyValues[lhs] ?? [], keyValues[rhs] ?? []) {
                        switch ascending.compare(left ?? NSNull(), to: right ?? NSNull()) {
                        case .orderedAscending: return true
                        case .orderedDescending: return false
                        case .orderedSame: continue
                        }
                    }
                    return false
                }
            }
            for key in order {
                let members = groups[key] ?? []
                rows.append(try shape.columns.map { column in
                    if let aggregate = Self.aggregate(of: column) {
                        return try aggregateValue(aggregate, over: members, entity: fetch.entity)
                    }
                    return try members.first.map { try value(of: column, for: $0, entity: fetch.entity) } ?? nil
                })
            }
        }
        if shape.distinct {
            var seen: Set<[AnyHashable?]> = []
            rows = rows.filter { seen.insert($0.map(Self.hashable)).inserted }
        }
        var results = rows.map { FetchedDictionary(keys: names, values: $0) }
        if let having = shape.having {
            results = try results.filter { try DictionaryShape.row($0, passes: having) }
        }
        return Array(Self.window(results, offset: fetch.fetchOffset, limit: fetch.fetchLimit))
    }

    // MARK: Values

    /// The value of one column for one node, in the types dictionary results hold (`Int64` for integers, object IDs
    /// for relationships).
    private func value(of column: DictionaryShape.Column, for node: NSAtomicStoreCacheNode, entity: NSEntityDescription) throws -> Any? {
        switch column {
        case .property(let property):
            if let relationship = property as? NSRelationshipDescription {
                guard !relationship.isToMany else {
                    throw CoreDataError(.persistentStoreOperation,
                                        "\(entity.entityName).\(property.name) is a to-many relationship, so it cannot be fetched as a dictionary value")
                }
            }
            return Self.resultValue(node.value(forKey: property.name))
        case .keyPath(_, let path):
            return Self.resultValue(KeyValueLookup.value(of: node, forKeyPath: path))
        case .expression(let name, let expression, _):
            do {
                let evaluator = PredicateEvaluator(evaluatedObject: node)
                return Self.resultValue(try evaluator.value(of: substitutingNodes(in: expression)).anyValue)
            } catch {
                throw CoreDataError(.persistentStoreOperation, "the expression \(name) (\(expression.predicateFormat)) cannot be computed: "
                                    + "\(error.reason)", underlyingError: error)
            }
        }
    }

    /// A value as a dictionary result holds it: integers as `Int64`, nodes as their object IDs, nil for NSNull.
    static func resultValue(_ value: Any?) -> Any? {
        guard let value = KeyValueLookup.unwrapped(value) else { return nil }
        switch value {
        case let node as NSAtomicStoreCacheNode: return node.objectID
        case let integer as Int: return Int64(integer)
        case let integer as Int32: return Int64(integer)
        case let integer as Int16: return Int64(integer)
        case let value as Float: return Double(value)
        default: return value
        }
    }

    private static func hashable(_ value: Any?) -> AnyHashable? {
        guard let value else { return nil }
        if let hashable = value as? AnyHashable { return hashable }
        return AnyHashable(String(reflecting: value))
    }

    // MARK: Aggregates

    private enum AggregateFunction { case count, sum, average, min, max }

    private struct Aggregate {
        var function: AggregateFunction
        /// The key path aggregated; nil for the object itself (`count:(SELF)`).
        var keyPath: String?
        var resultType: NSAttributeType
    }

    private static func aggregate(of column: DictionaryShape.Column) -> Aggregate? {
        guard case .expression(_, .function(let name, let arguments), let resultType) = column, arguments.count == 1 else { return nil }
        let functions: [String: AggregateFunction] = ["count:": .count, "sum:": .sum, "average:": .average, "min:": .min, "max:": .max]
        guard let function = functions[name] else { return nil }
        switch arguments[0] {
        case .keyPath(let path): return Aggregate(function: function, keyPath: path, resultType: resultType)
        case .evaluatedObject: return Aggregate(function: function, keyPath: nil, resultType: resultType)
        default: return nil
        }
    }

    /// An aggregate over a group's nodes, with SQL's rules: NULLs are skipped, `count:` of nothing is 0, the others nil.
    private func aggregateValue(_ aggregate: Aggregate, over nodes: [NSAtomicStoreCacheNode], entity: NSEntityDescription) throws -> Any? {
        let values: [Any] = nodes.compactMap { node in
            guard let path = aggregate.keyPath else { return node.objectID }
            return Self.resultValue(KeyValueLookup.value(of: node, forKeyPath: path))
        }
        switch aggregate.function {
        case .count:
            return Int64(values.count)
        case .min, .max:
            let ascending = Predicates.NSSortDescriptor(key: nil, ascending: true)
            let wanted: ComparisonResult = aggregate.function == .min ? .orderedAscending : .orderedDescending
            return values.dropFirst().reduce(values.first) { best, value in
                guard let best else { return value }
                return ascending.compare(value, to: best) == wanted ? value : best
            }
        case .sum, .average:
            guard !values.isEmpty else { return nil }
            var integerSum: Int64 = 0
            var doubleSum = 0.0
            var decimalSum = Decimal(0)
            var allIntegers = true
            for value in values {
                switch ConstantValue(any: value) {
                case .integer(let integer):
                    integerSum = integerSum &+ integer
                    doubleSum += Double(integer)
                    decimalSum += Decimal(integer)
                case .double(let double): allIntegers = false; doubleSum += double; decimalSum += Decimal(double)
                case .decimal(let decimal): allIntegers = false; doubleSum += NSDecimalNumber(decimal: decimal).doubleValue; decimalSum += decimal
                case .bool(let bool): integerSum += bool ? 1 : 0; doubleSum += bool ? 1 : 0; decimalSum += bool ? 1 : 0
                default:
                    throw CoreDataError(.persistentStoreOperation,
                                        "\(entity.entityName).\(aggregate.keyPath ?? "SELF") holds \(type(of: value)) values, which cannot be summed")
                }
            }
            // Declared decimal (`expressionResultType = .decimalAttributeType`): a decimal, as Apple's `NSDecimalNumber`.
            if aggregate.resultType == .decimalAttributeType {
                return aggregate.function == .average ? decimalSum / Decimal(values.count) : decimalSum
            }
            if aggregate.function == .average {
                let average = doubleSum / Double(values.count)
                return aggregate.resultType.isInteger ? Int64(average) : average
            }
            if allIntegers { return aggregate.resultType == .doubleAttributeType ? Double(integerSum) : integerSum }
            return aggregate.resultType.isInteger ? Int64(doubleSum) : doubleSum
        }
    }
}
