/// The SplitMix64 finaliser: spreads any 64-bit input (consecutive keys, addresses) over the whole word. IDs and
/// objects hash with it instead of SipHash, which is far costlier for one word.
enum SplitMix64 {
    @inline(__always)
    static func finalize(_ value: UInt64) -> UInt64 {
        var bits = value
        bits = (bits ^ (bits >> 30)) &* 0xbf58_476d_1ce4_e5b9
        bits = (bits ^ (bits >> 27)) &* 0x94d0_49bb_1331_11eb
        return bits ^ (bits >> 31)
    }
}
