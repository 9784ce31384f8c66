/// The string comparisons a Core Data sort may use, named by Apple's selectors.
public enum SortComparison: String, Sendable, Hashable, CaseIterable {
    case compare = "compare:"
    case caseInsensitiveCompare = "caseInsensitiveCompare:"
    case localizedCompare = "localizedCompare:"
    case localizedCaseInsensitiveCompare = "localizedCaseInsensitiveCompare:"
    case localizedStandardCompare = "localizedStandardCompare:"
}
