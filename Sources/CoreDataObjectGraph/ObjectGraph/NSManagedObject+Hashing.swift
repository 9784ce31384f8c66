extension NSManagedObject {
    /// What `Set` and `Dictionary` hash an object with: its identity (as `hash(into:)`), mixed with the per-process
    /// seed by the SplitMix64 finaliser instead of SipHash. Every save builds sets of its inserted, updated and deleted
    /// objects for the objects-did-change and did-save notifications, and SipHash over one word cost about 250
    /// instructions per object; the finaliser spreads addresses over the whole table in a dozen.
    public func _rawHashValue(seed: Int) -> Int {
        let bits = UInt64(bitPattern: Int64(seed)) ^ UInt64(UInt(bitPattern: ObjectIdentifier(self)))
        return Int(truncatingIfNeeded: SplitMix64.finalize(bits))
    }
}
