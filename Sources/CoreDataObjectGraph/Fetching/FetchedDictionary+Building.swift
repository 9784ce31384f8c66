/// Dictionary rows built from values rather than read from SQLite columns: what the in-memory engine and stores
/// outside the library return from ``RowStore/executeDictionaryFetch(_:_:)``.
extension FetchedDictionary {
    /// A row holding `values[i]` under `keys[i]`; a nil value leaves its key out, as a NULL column does. A key given
    /// twice keeps its last value that is not nil (as a `[String: Any]` filled in order would).
    public init(keys: [String], values: [Any?]) {
        precondition(keys.count == values.count, "a dictionary row has one value per key")
        var names: [String] = []
        var merged: [Any?] = []
        var positions: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            if let position = positions[key] {
                if value != nil { merged[position] = value }
            } else {
                positions[key] = names.count
                names.append(key)
                merged.append(value)
            }
        }
        self.init(keyTable: FetchedKeyTable(names: names), values: merged)
    }

    /// A row of one fetch's shared key table, `values` in the table's order.
    init(keyTable: FetchedKeyTable, values: [Any?]) {
        let storage = FetchedRowStorage.make(count: values.count) { pointer in
            for (index, value) in values.enumerated() {
                (pointer + index).initialize(to: value.map(FetchedValue.init) ?? .absent)
            }
        }
        self.init(keyTable: keyTable, storage: storage)
    }
}
