import Foundation

/// The samples' pseudo-random source: SplitMix64 (Steele, Lea and Flood's 64-bit mixer), written out here so the
/// sequence never changes with the standard library. `SystemRandomNumberGenerator` and `Int.random(in:using:)`
/// are deliberately not used: the first is unseeded, and the second's algorithm is not promised to stay the same
/// across Swift releases, which would silently change the committed samples.
struct SampleRandom {
    private var state: UInt64

    /// A generator for one sample: the master seed mixed with the sample's name, so generating one sample alone
    /// (`--only`) produces exactly the rows it has in a full run.
    init(seed: UInt64, stream: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over the name's UTF-8 bytes
        for byte in stream.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        state = seed ^ hash
    }

    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A value in `range`, by multiply-and-shift (Lemire): the bias is below 2⁻³² for the small ranges used here.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        let high = next().multipliedFullWidth(by: width).high
        return range.lowerBound + Int(high)
    }

    /// A double in [0, 1) from the top 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    mutating func pick<T>(_ elements: [T]) -> T {
        elements[int(in: 0...(elements.count - 1))]
    }

    /// `count` distinct elements in a random order (a partial Fisher–Yates shuffle of the indices).
    mutating func pick<T>(_ count: Int, of elements: [T]) -> [T] {
        var indices = Array(elements.indices)
        let wanted = min(count, indices.count)
        for position in 0..<wanted {
            indices.swapAt(position, int(in: position...(indices.count - 1)))
        }
        return indices[..<wanted].map { elements[$0] }
    }

    /// A version-4 UUID from the sequence, so identifiers and store UUIDs are reproducible.
    mutating func uuid() -> UUID {
        let high = next(), low = next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A date between `start` and `start + years`, to the second.
    mutating func date(from start: Date, years: Double) -> Date {
        start.addingTimeInterval((unit() * years * 365.25 * 86_400).rounded())
    }
}
