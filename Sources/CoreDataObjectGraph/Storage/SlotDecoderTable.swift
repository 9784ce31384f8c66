/// The slot decoders of every concrete entity a select plan reads, in one allocation the table owns.
///
/// A row looks its entity's decoders up and gets a buffer pointer: an array would be retained and released for every
/// row (two atomic operations, which also wait for the row's earlier stores to reach memory). `SlotDecoder` holds no
/// owning reference, so the memory needs no deinitialisation.
final class SlotDecoderTable: @unchecked Sendable {
    let storage: UnsafeMutableBufferPointer<SlotDecoder>
    /// Per entity number, the range of `storage` that holds its decoders.
    let ranges: EntityNumberTable<Range<Int>>
    /// The entity numbers the table holds decoders for, in the order they were laid out.
    let numbers: [Int]

    init(_ decodersByNumber: [(number: Int, decoders: [SlotDecoder])]) {
        assert(_isPOD(SlotDecoder.self), "the table's memory is released without deinitialising its decoders")
        storage = .allocate(capacity: decodersByNumber.reduce(0) { $0 + $1.decoders.count })
        var ranges = EntityNumberTable<Range<Int>>()
        var next = 0
        for (number, decoders) in decodersByNumber {
            _ = UnsafeMutableBufferPointer(rebasing: storage[next..<next + decoders.count]).initialize(from: decoders)
            ranges[number] = next..<next + decoders.count
            next += decoders.count
        }
        self.ranges = ranges
        numbers = decodersByNumber.map(\.number)
    }

    deinit {
        storage.deallocate()
    }

    /// The decoders of the entity numbered `number`, valid while the table lives; nil for a number the plan does not
    /// read.
    subscript(number: Int) -> UnsafeBufferPointer<SlotDecoder>? {
        guard let range = ranges[number] else { return nil }
        return UnsafeBufferPointer(rebasing: storage[range])
    }
}
