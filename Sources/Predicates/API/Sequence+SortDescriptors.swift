import Foundation
import KeyValueCoding

extension Sequence {
    /// The elements sorted by the first descriptor, ties broken by the next ones (stable for full ties).
    public func sortedArray(using descriptors: [NSSortDescriptor]) -> [Element] {
        enumerated().sorted { lhs, rhs in
            for descriptor in descriptors {
                switch descriptor.compare(lhs.element, to: rhs.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
