import Foundation
import KeyValueCoding
import Testing

struct KeyValueLookupTests {
    let chef: [String: Any] = [
        "name": "Ada",
        "address": ["city": "Lyon"] as [String: Any],
        "recipes": [
            ["title": "Soup", "minutes": 20] as [String: Any],
            ["title": "Stew", "minutes": 90] as [String: Any],
            ["title": "Soup", "minutes": 25] as [String: Any],
        ],
    ]

    @Test func keysAndKeyPaths() {
        #expect(KeyValueLookup.value(of: chef, forKey: "name") as? String == "Ada")
        #expect(KeyValueLookup.value(of: chef, forKeyPath: "address.city") as? String == "Lyon")
        #expect(KeyValueLookup.value(of: chef, forKeyPath: "address.country") == nil)
        #expect(KeyValueLookup.value(of: chef, forKeyPath: "missing.city") == nil)
    }

    private func number(_ keyPath: String) -> Double? {
        KeyValueLookup.value(of: chef, forKeyPath: keyPath).flatMap { NumericValue($0)?.doubleValue }
    }

    @Test func collectionOperators() {
        #expect(number("recipes.@count") == 3)
        #expect(number("recipes.@sum.minutes") == 135)
        #expect(number("recipes.@max.minutes") == 90)
        #expect(number("recipes.@min.minutes") == 20)
        #expect(number("recipes.@avg.minutes") == 45)
        let titles = KeyValueLookup.value(of: chef, forKeyPath: "recipes.@distinctUnionOfObjects.title") as? [Any]
        #expect(Set((titles ?? []).compactMap { $0 as? String }) == ["Soup", "Stew"])
    }

    @Test func nullsUnwrap() {
        #expect(KeyValueLookup.unwrapped(NSNull()) == nil)
        #expect(KeyValueLookup.unwrapped(Optional<String>.none as Any) == nil)
        #expect(KeyValueLookup.unwrapped("x") as? String == "x")
    }
}
