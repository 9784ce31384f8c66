/// The set operators between two collection expressions.
public enum SetOperation: String, Sendable, Hashable, CaseIterable {
    case union = "UNION"
    case intersect = "INTERSECT"
    case minus = "MINUS"
}
