/// A predicate as a Sendable value: the data behind ``NSPredicate`` and its subclasses.
///
/// Walk it with a `switch`; every case is a complete description (no hidden state lives in the classes):
/// ```swift
/// func visit(_ node: PredicateNode) {
///     switch node {
///     case .constant(let value): …            // TRUEPREDICATE / FALSEPREDICATE
///     case .comparison(let comparison): …     // left, operator, right, modifier, options
///     case .and(let subpredicates), .or(let subpredicates): …
///     case .not(let subpredicate): …
///     case .block: …                           // NSPredicate(block:): in memory only
///     }
/// }
/// ```
/// The parser builds flat `.and`/`.or` lists for chains (`a AND b AND c`) and keeps explicitly
/// parenthesised compounds nested, so printing and re-parsing gives the same value.
public indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// `left op right`, possibly with `ANY`/`ALL` and string options.
    case comparison(ComparisonNode)
    /// All subpredicates hold; an empty list is true.
    case and([PredicateNode])
    /// Some subpredicate holds; an empty list is false.
    case or([PredicateNode])
    /// The subpredicate does not hold. `NONE x op y` parses as `.not(ANY x op y)`.
    case not(PredicateNode)
    /// `NSPredicate(block:)`: a closure, evaluable in memory only. The parser never produces it.
    case block(PredicateBlock)
}
