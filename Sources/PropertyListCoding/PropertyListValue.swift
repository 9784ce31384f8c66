import Foundation

/// One property-list value: the types that `bplist00` and XML `<plist>` documents can hold, plus keyed-archive UIDs.
///
/// Representation choices:
/// - Integers are `.integer(Int64)`. Only values above `Int64.max` (which binary plists store in 16 bytes) use
///   `.unsignedInteger`; readers never produce `.unsignedInteger` for a value that fits in `Int64`.
/// - Dates are Foundation `Date`s. A binary plist stores them as seconds since 2001-01-01T00:00:00Z (the plist
///   epoch, `Date.timeIntervalSinceReferenceDate`); XML stores whole seconds only.
/// - Dictionaries are Swift dictionaries with `String` keys, so key order is not kept: writers sort keys to make
///   their output deterministic. Keys that Swift considers equal (canonically equivalent Unicode) merge.
/// - `.uid` is the `CF$UID` reference type that `NSKeyedArchiver` uses; `.null` is the binary null marker (`0x00`).
public enum PropertyListValue: Sendable, Hashable {
    /// A string (`<string>`, binary ASCII or UTF-16 strings).
    case string(String)
    /// A signed integer that fits in 64 bits (`<integer>`, binary ints of 1, 2, 4, 8 and 16 bytes).
    case integer(Int64)
    /// An integer above `Int64.max`, which only fits in an unsigned 64-bit value.
    case unsignedInteger(UInt64)
    /// A floating-point number (`<real>`, binary 4- or 8-byte reals).
    case real(Double)
    /// A boolean (`<true/>`, `<false/>`).
    case bool(Bool)
    /// A point in time (`<date>`, binary dates as seconds since 2001-01-01).
    case date(Date)
    /// Raw bytes (`<data>`).
    case data(Data)
    /// An ordered list (`<array>`; binary arrays, sets and ordered sets).
    case array([PropertyListValue])
    /// A string-keyed dictionary (`<dict>`).
    case dictionary([String: PropertyListValue])
    /// A keyed-archive object reference (binary UID; XML `<dict><key>CF$UID</key><integer>N</integer></dict>`).
    case uid(UInt64)
    /// The binary null marker. XML has no representation for it.
    case null

    /// An integer value in canonical form: `.integer` when it fits in `Int64`, `.unsignedInteger` otherwise.
    public static func integer(exactly value: UInt64) -> PropertyListValue {
        if let signed = Int64(exactly: value) { return .integer(signed) }
        return .unsignedInteger(value)
    }
}
