/// A reference that does not keep its object alive: one word, no retain or release when it is copied or read.
///
/// Whoever stores one owes the proof that the object outlives it (see `MemorySafety.swift`, invariants 3 and 4):
/// interned store identifiers are never freed, and an entity description a slot decoder names is kept alive by the
/// select plan that holds the decoder. Built on `Unmanaged`, not an `unowned(unsafe)` optional: with Swift 6.3.1 the
/// -Onone build still miscompiles such a field in `SlotDecoder` (the test run dies asking for a garbage-sized
/// allocation), while this form passes.
struct UnretainedReference<Object: AnyObject> {
    private let reference: Unmanaged<Object>

    @inline(__always)
    init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// The object, retained for as long as the caller keeps it.
    @inline(__always)
    var object: Object { reference.takeUnretainedValue() }

    /// Runs `body` with the object, neither retained nor released (the caller's invariant keeps it alive).
    @inline(__always)
    func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// Whether both are nil or both refer to the same object (compared by address, without reaching either).
    @inline(__always)
    static func same(_ lhs: UnretainedReference?, _ rhs: UnretainedReference?) -> Bool {
        lhs?.reference.toOpaque() == rhs?.reference.toOpaque()
    }
}

extension UnretainedReference: @unchecked Sendable where Object: Sendable {}

extension Array where Element: AnyObject {
    /// Calls `body` with each element of `range` neither retained nor released: the array holds them, and `body` must
    /// not change the array.
    @inline(__always)
    func forEachUnretained(in range: Range<Int>, _ body: (Element) throws -> Void) rethrows {
        for index in range { try Unmanaged.passUnretained(self[index])._withUnsafeGuaranteedRef(body) }
    }
}
