/// What an index expression selects.
public enum IndexSelector: Sendable, Hashable {
    /// `[FIRST]`: the first element.
    case first
    /// `[LAST]`: the last element.
    case last
    /// `[SIZE]`: the element count.
    case size
    /// `[expression]`: an integer position in an array, or a key in a dictionary.
    case at(ExpressionNode)
}
