import Foundation

/// The order of Foundation's `compare:` (an `NSSortDescriptor` without a selector) decided on UTF-8 bytes where
/// that is safe, so that SQLite sorts text at close to its own speed (issue 21: a Swift comparison per SQLite
/// comparison made sorting 500,000 names take seconds).
///
/// `compare:` orders canonically equivalent texts as equal and compares decomposed code points, so bytes alone are
/// right only around ASCII: when the first differing bytes are both ASCII and neither is followed by a non-ASCII
/// byte (which could be a combining mark changing that character), or one text ends where the other goes on, the
/// bytes decide. Everything else is compared as strings by `fallback`.
enum FoundationTextOrder {
    static func compare(
        _ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer,
        fallback: (String, String) -> ComparisonResult
    ) -> ComparisonResult {
        if let decided = asciiDecision(left, right) { return decided }
        return fallback(String(decoding: left, as: UTF8.self), String(decoding: right, as: UTF8.self))
    }

    /// The order when the bytes decide it, else nil.
    static func asciiDecision(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> ComparisonResult? {
        let count = min(left.count, right.count)
        var index = 0
        while index < count, left[index] == right[index] { index += 1 }
        if index == count {
            if left.count == right.count { return .orderedSame }
            // One text is a prefix of the other: the longer follows, whatever it goes on with.
            return left.count < right.count ? .orderedAscending : .orderedDescending
        }
        let (a, b) = (left[index], right[index])
        guard a < 0x80, b < 0x80 else { return nil }
        // A combining mark after either character could make it another letter.
        if index + 1 < left.count, left[index + 1] >= 0x80 { return nil }
        if index + 1 < right.count, right[index + 1] >= 0x80 { return nil }
        return a < b ? .orderedAscending : .orderedDescending
    }
}
