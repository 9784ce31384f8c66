import Foundation

extension Sequence {
    /// The elements for which `predicate` holds, in order (Apple's `filtered(using:)` for Swift sequences).
    public func filtered(using predicate: NSPredicate) -> [Element] {
        filter { predicate.evaluate(with: $0) }
    }
}

extension NSArray {
    /// The elements for which `predicate` holds, in order, as `NSArray.filtered(using:)` returns them.
    public func filtered(using predicate: NSPredicate) -> [Any] {
        (map { $0 } as [Any]).filter { predicate.evaluate(with: $0) }
    }
}

extension NSSet {
    /// The elements for which `predicate` holds, as `NSSet.filtered(using:)` returns them.
    public func filtered(using predicate: NSPredicate) -> Set<AnyHashable> {
        Set(allObjects.filter { predicate.evaluate(with: $0) }.compactMap { $0 as? AnyHashable })
    }
}
