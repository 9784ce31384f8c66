import Foundation

/// The object most evaluation tests run against: a dictionary, as the `coredata predicate --evaluate` JSON is.
/// `nickname` is absent and `middleName` is `NSNull`, for the nil semantics.
var person: [String: Any] {
    [
    "name": "Ann", "age": 34, "height": 1.68, "city": "Zürich", "title": "Café au lait", "street": "Straße",
    "town": "İstanbul", "emoji": "I ❤️ 👍🏽!", "decomposed": "e\u{301}te", "precomposed": "\u{E9}te", "pattern": "a*b",
    "middleName": NSNull(), "note": "line1\nline2", "isActive": true, "flags": 6, "amount": Decimal(string: "10.5")!,
    "birthday": Date(timeIntervalSinceReferenceDate: 0), "tags": ["swift", "linux", "Core Data"], "scores": [3, 5, 8],
    "children": [["name": "Bob", "age": 5, "toys": [["price": 2]]], ["name": "Cléa", "age": 12, "toys": []]],
    "address": ["city": "Paris", "zip": "75001"], "empty": [Int](), "ratio": Float(0.5), "count64": Int64(7),
    "boxed": NSNumber(value: 1), "boxedBool": NSNumber(value: true), "setOfTags": Set(["a", "b"]),
    "nsArray": NSArray(array: [1, 2, 3]), "nsDictionary": NSDictionary(dictionary: ["k": "v"]),
    ]
}

/// A list of people (built on each use, since `[String: Any]` is not Sendable) for filtering tests.
var people: [[String: Any]] {
    [
    ["name": "Ann", "age": 34, "city": "Zürich"],
    ["name": "bob", "age": 17, "city": "zurich"],
    ["name": "Cléa", "age": 51, "city": "Paris"],
    ["name": "Dmitri", "age": 8],
    ["name": "Émile", "age": 34, "city": NSNull()],
    ["name": "ﬁona", "age": 29, "city": "İzmir"],
    ]
}
