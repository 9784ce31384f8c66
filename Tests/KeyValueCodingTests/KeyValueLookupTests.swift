import Foundation
import KeyValueCoding
import Testing

/// An object that conforms to key-value coding by hand, as managed objects will.
private final class Book: KeyValueCoding {
    let title: String
    let pages: Int
    let authors: [[String: Any]]

    init(title: String, pages: Int, authors: [[String: Any]]) {
        self.title = title
        self.pages = pages
        self.authors = authors
    }

    func value(forKey key: String) -> Any? {
        switch key {
        case "title": title
        case "pages": pages
        case "authors": authors
        default: nil
        }
    }
}

@Suite("Key-value coding")
struct KeyValueLookupTests {
    private var library: [String: Any] {
        [
            "name": "City", "books": [
                Book(title: "A", pages: 100, authors: [["name": "Ann"], ["name": "Bob"]]),
                Book(title: "B", pages: 250, authors: [["name": "Ann"]]),
                Book(title: "C", pages: 50, authors: []),
            ], "numbers": [1, 2.5, NSNumber(value: 3)], "empty": [Int](), "missing": NSNull(),
            "nested": ["deeper": ["leaf": 42]], "set": Set([1, 2, 2, 3]), "nsArray": NSArray(array: [["k": 1], ["k": 2]]),
        ]
    }

    @Test("Keys and key paths through dictionaries and objects")
    func keyPaths() {
        #expect(library.value(forKey: "name") as? String == "City")
        #expect(library.value(forKeyPath: "nested.deeper.leaf") as? Int == 42)
        #expect(library.value(forKey: "missing") == nil)
        #expect(library.value(forKeyPath: "missing.anything") == nil)
        #expect(library.value(forKeyPath: "nope.nope") == nil)
        #expect(library.value(forKeyPath: "books.title") as? [String] == ["A", "B", "C"])
        #expect(KeyValueLookup.value(of: nil, forKeyPath: "a") == nil)
        #expect(KeyValueLookup.value(of: 5, forKey: "a") == nil)
        #expect(NSDictionary(dictionary: ["a": ["b": 1]]).value(forKeyPath: "a.b") as? Int == 1)
        #expect(library.value(forKeyPath: "nsArray.k") as? [Int] == [1, 2])
    }

    @Test("Collection operators", arguments: [
        ("books.@count", "3"), ("books.@sum.pages", "400"), ("books.@avg.pages", "133.33"), ("books.@min.pages", "50"),
        ("books.@max.pages", "250"), ("books.@max.title", "C"), ("numbers.@sum", "6.5"), ("numbers.@count", "3"),
        ("empty.@sum", "0"), ("empty.@avg", "nil"), ("empty.@min", "nil"), ("empty.@count", "0"), ("set.@count", "3"),
        ("set.@sum", "6"), ("books.@distinctUnionOfArrays.authors.name", "Ann,Bob"),
        ("books.@unionOfArrays.authors.name", "Ann,Bob,Ann"), ("books.@unionOfObjects.title", "A,B,C"),
        ("books.@distinctUnionOfObjects.pages", "100,250,50"), ("nsArray.@sum.k", "3"), ("@count", "8"),
    ])
    func collectionOperators(keyPath: String, expected: String) {
        let value = library.value(forKeyPath: keyPath)
        let rendered: String
        switch value {
        case nil: rendered = "nil"
        case let double as Double: rendered = String(format: "%.2f", double).replacingOccurrences(of: ".00", with: "").replacingOccurrences(of: ".50", with: ".5")
        case let array as [Any]: rendered = array.map { "\($0)" }.joined(separator: ",")
        default: rendered = "\(value!)"
        }
        #expect(rendered == expected)
    }

    @Test("Numbers are classified by their exact type, never mistaking NSNumber(1) for true")
    func numericClassification() {
        #expect(NumericValue(true) == .integer(1))
        #expect(NumericValue.isBoolean(true))
        #expect(NumericValue.isBoolean(NSNumber(value: true)))
        #expect(!NumericValue.isBoolean(NSNumber(value: 1)))
        #expect(!NumericValue.isBoolean(1))
        #expect(NumericValue(NSNumber(value: 2.5)) == .double(2.5))
        #expect(NumericValue(NSNumber(value: 7)) == .integer(7))
        #expect(NumericValue(UInt64.max) == .double(Double(UInt64.max)))
        #expect(NumericValue(Float(1.5)) == .double(1.5))
        #expect(NumericValue(Decimal(string: "3.14")!) == .decimal(Decimal(string: "3.14")!))
        #expect(NumericValue("1") == nil)
        #expect(NumericValue.compare(.integer(Int64.max), .integer(Int64.max - 1)) == .orderedDescending)
        #expect(NumericValue.sum([.integer(Int64.max), .integer(1)]) == .decimal(Decimal(Int64.max) + 1))
        #expect(NumericValue.sum([.integer(1), .double(0.5)]) == .double(1.5))
    }

    @Test("Strings answer NSString's keys", arguments: [
        ("length", "5"), ("lowercaseString", "héllo"), ("uppercaseString", "HÉLLO"), ("capitalizedString", "Héllo"),
        ("intValue", "0"), ("boolValue", "false"), ("unknown", "nil"),
    ])
    func stringKeys(key: String, expected: String) {
        #expect(KeyValueLookup.value(of: "hÉllo", forKey: key).map { "\($0)" } ?? "nil" == expected)
        #expect(KeyValueLookup.value(of: ["word": "hÉllo"], forKeyPath: "word.\(key)").map { "\($0)" } ?? "nil" == expected)
    }

    @Test("Dictionaries can be written by key")
    func setValue() {
        var dictionary: [String: Any] = ["a": 1]
        dictionary.setValue(2, forKey: "b")
        dictionary.setValue(nil, forKey: "a")
        #expect(dictionary.value(forKey: "b") as? Int == 2)
        #expect(dictionary.value(forKey: "a") == nil)
    }
}
