/// String comparison options, with the raw values of `NSComparisonPredicate.Options`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    /// The bits of `NSComparisonPredicate.Options`.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `[c]`: case folding.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic folding.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: the operands are already normalised; compare them literally (supersedes `[c]` and `[d]`).
    public static let normalized = ComparisonOptions(rawValue: 4)

    /// The bracketed suffix in a format string, `[cd]`, or the empty string.
    public var formatSuffix: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}
