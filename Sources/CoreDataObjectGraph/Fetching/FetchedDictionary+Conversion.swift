extension Dictionary where Key == String, Value == Any {
    /// The row as a `[String: Any]`, holding the keys the row has values for.
    public init(_ row: FetchedDictionary) {
        let table = row.keyTable
        let storage = row.storage
        if !row.storedValues.contains(where: \.isAbsent) {
            // The key table's dictionary of positions is the template: `mapValues` keeps its layout, so no key is
            // hashed again.
            self = table.positionByName.mapValues { storage[$0].anyValue! }
            return
        }
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(table.names.count)
        for (name, value) in zip(table.names, row.storedValues) {
            if let value = value.anyValue { dictionary[name] = value }
        }
        self = dictionary
        withExtendedLifetime(storage) {}
    }
}

extension FetchedDictionary: Equatable {
    /// Rows are equal when they have the same keys with equal values, whichever fetches they come from.
    public static func == (lhs: FetchedDictionary, rhs: FetchedDictionary) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return withExtendedLifetime((lhs.storage, rhs.storage)) {
            if lhs.keyTable === rhs.keyTable { return lhs.storedValues.elementsEqual(rhs.storedValues) }
            guard lhs.count == rhs.count else { return false }
            for (name, value) in zip(lhs.keyTable.names, lhs.storedValues) where !value.isAbsent {
                guard let position = rhs.keyTable.position(of: name), rhs.storage[position] == value else { return false }
            }
            return true
        }
    }
}

extension FetchedDictionary: CustomStringConvertible, CustomDebugStringConvertible {
    /// The row as a dictionary literal, in the order the keys were fetched: `["text": "apple", "length": 5]`.
    public var description: String {
        if isEmpty { return "[:]" }
        let pairs = map { "\($0.key.debugDescription): \(String(reflecting: $0.value))" }
        return "[" + pairs.joined(separator: ", ") + "]"
    }

    public var debugDescription: String { description }
}
