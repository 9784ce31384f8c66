/// The keys every row of one dictionary fetch shares, in the order of `propertiesToFetch`: resolved to positions
/// once per fetch, so a row holds only its values (what Apple's `NSKnownKeysDictionary` rows share).
///
/// Immutable once built (but for the lookup guess, an atomic), so rows may share it across threads. Its
/// `positionByName` is also the template `[String: Any]` rows are built from (`mapValues` keeps its layout, so no
/// key is hashed again).
@usableFromInline
final class FetchedKeyTable: NameLookup, @unchecked Sendable {
    override init(names: [String]) {
        super.init(names: names)
        precondition(positionByName.count == names.count, "a key table's keys are unique")
    }
}
