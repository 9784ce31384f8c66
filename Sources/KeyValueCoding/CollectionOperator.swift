import Foundation

/// The key-value coding collection operators, written `@name` inside a key path.
public enum CollectionOperator: String, Sendable, CaseIterable {
    case count
    case sum
    case avg
    case min
    case max
    case distinctUnionOfObjects
    case unionOfObjects
    case distinctUnionOfArrays
    case unionOfArrays
    case distinctUnionOfSets

    /// Applies the operator to `elements`, first reading `rightKeyPath` (the path after the operator) from each.
    ///
    /// Empty collections: `@count` and `@sum` give 0, `@avg`, `@min` and `@max` give nil (Realm's semantics,
    /// chosen in the predicate reference). Nil values are skipped, as Foundation's operators skip them.
    public func apply(to elements: [Any], rightKeyPath: String?) -> Any? {
        if self == .count { return elements.count }
        let values: [Any] = elements.compactMap { element in
            guard let rightKeyPath else { return KeyValueLookup.unwrapped(element) }
            return KeyValueLookup.value(of: element, forKeyPath: rightKeyPath).flatMap(KeyValueLookup.unwrapped)
        }
        switch self {
        case .count: return elements.count
        case .sum: return NumericValue.sum(values.compactMap(NumericValue.init)).anyValue
        case .avg:
            let numbers = values.compactMap(NumericValue.init)
            guard !numbers.isEmpty else { return nil }
            return numbers.reduce(0.0) { $0 + $1.doubleValue } / Double(numbers.count)
        case .min: return values.min { Self.ascending($0, $1) }
        case .max: return values.max { Self.ascending($0, $1) }
        case .unionOfObjects: return values
        case .distinctUnionOfObjects: return Self.distinct(values)
        case .unionOfArrays: return values.flatMap { KeyValueLookup.elements(of: $0) ?? [$0] }
        case .distinctUnionOfArrays, .distinctUnionOfSets:
            return Self.distinct(values.flatMap { KeyValueLookup.elements(of: $0) ?? [$0] })
        }
    }

    /// Orders numbers numerically, strings by `compare(_:)`, dates chronologically; other pairs are unordered.
    static func ascending(_ lhs: Any, _ rhs: Any) -> Bool {
        if let a = NumericValue(lhs), let b = NumericValue(rhs) { return NumericValue.compare(a, b) == .orderedAscending }
        if let a = lhs as? String, let b = rhs as? String { return a.compare(b) == .orderedAscending }
        if let a = lhs as? Date, let b = rhs as? Date { return a < b }
        return false
    }

    /// Removes duplicates, keeping first occurrences; unhashable values are compared by identity.
    static func distinct(_ values: [Any]) -> [Any] {
        var seen = Set<AnyHashable>()
        var seenObjects: [ObjectIdentifier] = []
        var result: [Any] = []
        for value in values {
            if let hashable = value as? AnyHashable {
                if seen.insert(hashable).inserted { result.append(value) }
            } else if type(of: value) is AnyClass {
                let id = ObjectIdentifier(value as AnyObject)
                if !seenObjects.contains(id) { seenObjects.append(id); result.append(value) }
            } else {
                result.append(value)
            }
        }
        return result
    }
}
