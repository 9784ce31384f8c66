import Foundation
import Synchronization

/// The UUIDs of temporary object IDs: one random UUID per process, with a process-wide counter folded into its
/// last eight bytes, so every temporary ID of the process is distinct (as Apple's are, whose temporary IDs are a
/// UUID and a counter too) without asking the system for randomness each time.
///
/// `UUID()` on Linux opens `/dev/urandom`, reads sixteen bytes and closes it again: three system calls on every
/// `insertNewObject`, a large part of an insert's wall-clock cost.
enum TemporaryIDSource {
    /// Random once per process, so temporary IDs of different processes do not look alike; as two words.
    private static let base = unsafeBitCast(UUID().uuid, to: (UInt64, UInt64).self)
    private static let counter = Atomic<UInt64>(0)

    /// A UUID no other temporary ID of this process has.
    static func next() -> UUID {
        let count = counter.add(1, ordering: .relaxed).newValue
        // Big-endian into bytes 8…15: the counter reaches byte 8, which holds the variant bits, only past 2⁵⁶ IDs.
        return UUID(uuid: unsafeBitCast((base.0, base.1 ^ count.bigEndian), to: uuid_t.self))
    }
}
