/// Deterministic mutation of fuzz inputs: the same seed gives the same inputs on every machine, so a failure in the
/// short runs of the test suite reproduces exactly.
///
/// Each step applies one to four of: flipping a bit, setting a byte to an interesting value (0, 0xFF, 0x7F, 0x80),
/// inserting or deleting a byte, deleting or duplicating a run, splicing in a run from another corpus input, and
/// inserting or substituting a token of the target's format (``FuzzTarget/dictionary``).
public struct SeededMutator {
    private var state: UInt64
    private let dictionary: [[UInt8]]
    /// Inputs never grow past this many bytes.
    public let maximumLength: Int

    /// A mutator whose choices all follow from `seed`, inserting tokens from `dictionary`.
    public init(seed: UInt64, dictionary: [[UInt8]], maximumLength: Int = 64 * 1024) {
        state = seed
        self.dictionary = dictionary
        self.maximumLength = maximumLength
    }

    /// SplitMix64: small, fast and well mixed.
    public mutating func nextRandom() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is 0 or 1).
    public mutating func below(_ bound: Int) -> Int {
        bound <= 1 ? 0 : Int(nextRandom() % UInt64(bound))
    }

    /// A mutant of `input`, with `corpus` as the source of splices.
    public mutating func mutate(_ input: [UInt8], corpus: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0...below(4) {
            mutateOnce(&bytes, corpus: corpus)
        }
        if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
        return bytes
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8], corpus: [[UInt8]]) {
        switch below(9) {
        case 0 where !bytes.isEmpty:
            let index = below(bytes.count)
            bytes[index] ^= 1 << UInt8(below(8))
        case 1 where !bytes.isEmpty:
            bytes[below(bytes.count)] = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0x20, 0x0A][below(7)]
        case 2:
            bytes.insert(UInt8(truncatingIfNeeded: nextRandom()), at: below(bytes.count + 1))
        case 3 where !bytes.isEmpty:
            bytes.remove(at: below(bytes.count))
        case 4 where bytes.count > 1:
            let start = below(bytes.count), length = 1 + below(min(64, bytes.count - start))
            bytes.removeSubrange(start..<(start + length))
        case 5 where !bytes.isEmpty:
            let start = below(bytes.count), length = 1 + below(min(64, bytes.count - start))
            bytes.insert(contentsOf: bytes[start..<(start + length)], at: below(bytes.count + 1))
        case 6 where !corpus.isEmpty:
            let other = corpus[below(corpus.count)]
            guard !other.isEmpty else { return }
            let start = below(other.count), length = 1 + below(min(256, other.count - start))
            let at = below(bytes.count + 1)
            // Half the time the splice replaces the tail, as a crossover does.
            if below(2) == 0 { bytes.removeSubrange(at...) }
            bytes.insert(contentsOf: other[start..<(start + length)], at: min(at, bytes.count))
        case 7 where !dictionary.isEmpty:
            bytes.insert(contentsOf: dictionary[below(dictionary.count)], at: below(bytes.count + 1))
        case 8 where !dictionary.isEmpty && !bytes.isEmpty:
            // Replace a token-sized run with a token.
            let token = dictionary[below(dictionary.count)]
            let start = below(bytes.count), length = min(1 + below(8), bytes.count - start)
            bytes.replaceSubrange(start..<(start + length), with: token)
        default:
            bytes.append(UInt8(truncatingIfNeeded: nextRandom()))
        }
    }
}
