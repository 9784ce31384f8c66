import Foundation

/// What makes two leaves the same object: exact bytes, not Swift equality (which equates canonically
/// equivalent strings, 0.0 and -0.0, and never equates NaN with itself).
enum LeafIdentity: Hashable {
    case string([UInt8])
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(UInt64)
    case bool(Bool)
    case date(UInt64)
    case data(Data)
    case uid(UInt64)
    case null

    init(_ value: PropertyListValue) {
        switch value {
        case .string(let string): self = .string(Array(string.utf8))
        case .integer(let integer): self = .integer(integer)
        case .unsignedInteger(let integer):
            if let signed = Int64(exactly: integer) { self = .integer(signed) } else { self = .unsignedInteger(integer) }
        case .real(let real): self = .real(real.bitPattern)
        case .bool(let flag): self = .bool(flag)
        case .date(let date): self = .date(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data): self = .data(data)
        case .uid(let uid): self = .uid(uid)
        case .null, .array, .dictionary: self = .null
        }
    }
}
