/// One object of the output, with collections reduced to object indices.
enum FlatObject {
    case leaf(PropertyListValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
}

/// Numbers the objects of a value tree in pre-order, sharing equal leaves.
struct BinaryPropertyListFlattener {
    let uniquesLeafValues: Bool
    private(set) var objects: [FlatObject] = []
    private var leafIndices: [LeafIdentity: Int] = [:]

    init(uniquesLeafValues: Bool) {
        self.uniquesLeafValues = uniquesLeafValues
    }

    mutating func add(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements):
            let index = reserve()
            let references = elements.map { add($0) }
            objects[index] = .array(references)
            return index
        case .dictionary(let entries):
            let index = reserve()
            let sortedEntries = entries.sorted { $0.key < $1.key }
            let keys = sortedEntries.map { add(.string($0.key)) }
            let values = sortedEntries.map { add($0.value) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        default:
            guard uniquesLeafValues else { return append(.leaf(value)) }
            let identity = LeafIdentity(value)
            if let existing = leafIndices[identity] { return existing }
            let index = append(.leaf(value))
            leafIndices[identity] = index
            return index
        }
    }

    private mutating func reserve() -> Int { append(.array([])) }

    private mutating func append(_ object: FlatObject) -> Int {
        objects.append(object)
        return objects.count - 1
    }
}
