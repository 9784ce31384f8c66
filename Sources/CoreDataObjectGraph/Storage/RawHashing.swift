extension NSManagedObject {
    /// What `Set` and `Dictionary` hash an object with: its identity, as `hash(into:)`, mixed with the per-process
    /// seed by the SplitMix64 finaliser instead of SipHash (saves build sets of their objects for notifications).
    ///
    /// Public only because it implements `Hashable`'s underscored requirement; not API.
    public func _rawHashValue(seed: Int) -> Int {
        let bits = UInt64(bitPattern: Int64(seed)) ^ UInt64(UInt(bitPattern: ObjectIdentifier(self)))
        return Int(truncatingIfNeeded: SplitMix64.finalize(bits))
    }
}

extension NSManagedObjectID {
    /// What `Set` and `Dictionary` hash an ID with (`mixedHash(seed:)`).
    ///
    /// Public only because it implements `Hashable`'s underscored requirement; not API.
    public func _rawHashValue(seed: Int) -> Int {
        mixedHash(seed: seed)
    }
}
