extension FetchedDictionary: Sequence {
    /// Walks a row's key-value pairs in the order the keys were fetched, skipping the keys it has no value for.
    public struct Iterator: IteratorProtocol {
        let row: FetchedDictionary
        var position = 0

        public mutating func next() -> (key: String, value: Any)? {
            while position < row.storage.count {
                defer { position += 1 }
                if let value = row.storage[position].anyValue { return (row.keyTable.names[position], value) }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(row: self)
    }

    public var underestimatedCount: Int { count }
}
