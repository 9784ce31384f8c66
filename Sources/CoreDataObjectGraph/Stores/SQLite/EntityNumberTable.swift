/// Values keyed by entity numbers (`Z_ENT`): small, dense integers, so a lookup is an array index instead of a
/// hash on every decoded row. Numbers outside the table (a foreign or corrupt store) read as nil.
struct EntityNumberTable<Value> {
    private var values: [Value?] = []

    subscript(number: Int) -> Value? {
        get { number >= 0 && number < values.count ? values[number] : nil }
        set {
            precondition(number >= 0 && number < 1 << 20, "entity numbers are small non-negative integers")
            if number >= values.count { values += Array(repeating: nil, count: number - values.count + 1) }
            values[number] = newValue
        }
    }
}
