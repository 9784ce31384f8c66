import Foundation
import Predicates
import Testing

import class Predicates.NSSortDescriptor

/// `NSSortDescriptor`'s `compare:` order decides plain ASCII strings on their bytes; the order must be Foundation's,
/// for every pair, and text outside plain ASCII still goes to Foundation.
struct SortDescriptorOrderTests {
    @Test func plainASCIIOrderIsFoundationsCompare() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(" !#09:AZ[_`az{~\t") + ["\r", "\u{7f}"]
        let ascending = NSSortDescriptor(key: nil, ascending: true)
        let descending = NSSortDescriptor(key: nil, ascending: false)
        for _ in 0..<5_000 {
            let a = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let b = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let expected = a.compare(b)
            #expect(ascending.compare(a, to: b) == expected, "\(a.debugDescription) vs \(b.debugDescription)")
            let reversed: ComparisonResult = expected == .orderedAscending ? .orderedDescending
                : expected == .orderedDescending ? .orderedAscending : .orderedSame
            #expect(descending.compare(a, to: b) == reversed)
        }
    }

    @Test func textBeyondASCIIIsComparedByFoundation() {
        let byName = NSSortDescriptor(key: nil, ascending: true)
        for (a, b) in [("é", "f"), ("e\u{301}", "é"), ("Z", "Ä"), ("a\0b", "a")] {
            #expect(byName.compare(a, to: b) == a.compare(b), "\(a.debugDescription) vs \(b.debugDescription)")
        }
    }
}
