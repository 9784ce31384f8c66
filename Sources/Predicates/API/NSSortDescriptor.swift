import Foundation
import KeyValueCoding

/// A sort order on a key path, Apple's `NSSortDescriptor` with the comparisons Core Data accepts.
///
/// Shadows Foundation's `NSSortDescriptor`, whose key-based initializers are unavailable on Linux.
/// Nil sorts before every value, as Foundation's `compare:` orders a missing value first.
open class NSSortDescriptor: NSObject, @unchecked Sendable {
    // Unchecked: all stored properties are immutable Sendable values.
    /// The key path sorted on; nil sorts the objects themselves.
    public var key: String? { deferredKey?() ?? storedKey }
    private let storedKey: String?
    /// The key of a descriptor made from a Swift key path before the key could be learnt (see `init(deferredKey:)`).
    private let deferredKey: (@Sendable () -> String)?
    /// Whether smaller values come first.
    public let ascending: Bool
    /// How strings are compared.
    public let comparison: SortComparison

    /// Sorts on `key` with `comparison` (`compare:` by default).
    public init(key: String?, ascending: Bool, comparison: SortComparison = .compare) {
        storedKey = key
        deferredKey = nil
        self.ascending = ascending
        self.comparison = comparison
        super.init()
    }

    /// Sorts on the key `deferredKey` gives when the descriptor is first used. A sort descriptor on a Swift key path
    /// (`\Person.name`) is often made before any model is loaded (a property's initial value), and on Linux the key
    /// can only be learnt from the loaded model; `deferredKey` stops with a message if it still cannot name it.
    package init(deferredKey: @escaping @Sendable () -> String, ascending: Bool, comparison: SortComparison = .compare) {
        storedKey = nil
        self.deferredKey = deferredKey
        self.ascending = ascending
        self.comparison = comparison
        super.init()
    }

    /// The comparison's selector name, such as `"localizedStandardCompare:"`.
    public var selectorName: String { comparison.rawValue }

    /// The same sort in the opposite direction.
    public var reversedSortDescriptor: NSSortDescriptor {
        NSSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    /// Orders two objects by their values at ``key``, honouring ``ascending``.
    public func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        compareSortKeys(sortKey(of: object1), sortKey(of: object2))
    }

    /// The value `object` is sorted by: its value at ``key``, or the object itself. Code that compares one object many
    /// times (a merge of sorted lists) reads it once and compares keys with ``compareSortKeys(_:_:)``.
    package func sortKey(of object: Any) -> ConstantValue {
        ConstantValue(any: key.map { KeyValueLookup.value(of: object, forKeyPath: $0) } ?? object)
    }

    /// Orders two sort keys (``sortKey(of:)``) as ``compare(_:to:)`` orders their objects.
    package func compareSortKeys(_ first: ConstantValue, _ second: ConstantValue) -> ComparisonResult {
        let result = compareValues(first, second)
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    private func compareValues(_ first: ConstantValue, _ second: ConstantValue) -> ComparisonResult {
        switch (first, second) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case let (.string(a), .string(b)):
            switch comparison {
            case .compare: return Self.plainASCIIOrder(a, b) ?? a.compare(b)
            case .caseInsensitiveCompare: return a.compare(b, options: .caseInsensitive)
            case .localizedCompare: return a.compare(b, locale: Locale.current)
            case .localizedCaseInsensitiveCompare: return a.compare(b, options: .caseInsensitive, locale: Locale.current)
            case .localizedStandardCompare: return a.localizedStandardCompare(b)
            }
        default:
            return ValueComparison.order(first, second, options: []) ?? .orderedSame
        }
    }

    /// Foundation's `compare:` order of two plain ASCII strings, decided on their bytes (see ``PlainASCII``), or nil
    /// when either is not plain ASCII or not stored contiguously, for Foundation to decide.
    private static func plainASCIIOrder(_ a: String, _ b: String) -> ComparisonResult? {
        let order = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in
                PlainASCII.isPlain(left) && PlainASCII.isPlain(right) ? PlainASCII.compare(left, right, foldingCase: false) : nil
            } ?? nil
        } ?? nil
        return order?.comparisonResult
    }

    /// Apple's description: `(key, ascending, compare:)`.
    open override var description: String {
        "(\(key ?? "SELF"), \(ascending ? "ascending" : "descending"), \(selectorName))"
    }

    /// Equal when key, direction and comparison are equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSSortDescriptor else { return false }
        return key == other.key && ascending == other.ascending && comparison == other.comparison
    }

    /// Consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(ascending)
        hasher.combine(comparison)
        return hasher.finalize()
    }
}

extension ComparisonOrder {
    /// The same order as Foundation's `ComparisonResult`.
    fileprivate var comparisonResult: ComparisonResult {
        switch self {
        case .ascending: return .orderedAscending
        case .same: return .orderedSame
        case .descending: return .orderedDescending
        }
    }
}
