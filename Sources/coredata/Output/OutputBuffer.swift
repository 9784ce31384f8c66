import Foundation

/// Bytes on their way to a file descriptor: values are appended as UTF-8 (strings, digits, escapes) with no
/// intermediate `String`, and written out in 64 KiB pieces, so output of any length keeps memory flat.
struct OutputBuffer {
    private(set) var bytes: [UInt8] = []
    private let descriptor: Int32
    private let flushThreshold = 64 * 1024

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        bytes.reserveCapacity(flushThreshold + 4096)
    }

    /// A small buffer that is never written out: the text of one value.
    static func scratch() -> OutputBuffer {
        OutputBuffer(scratchCapacity: 32)
    }

    private init(scratchCapacity: Int) {
        descriptor = -1
        bytes.reserveCapacity(scratchCapacity)
    }

    @inline(__always) mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always) mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(contentsOf buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }

    mutating func append(repeating byte: UInt8, count: Int) {
        if count > 0 { bytes.append(contentsOf: repeatElement(byte, count: count)) }
    }

    /// Decimal digits of `value`.
    mutating func append(integer value: Int64) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while magnitude > 0 {
                scratch[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: scratch[(24 - count)...])
        }
    }

    /// `value` as a JSON number: integral values below 10^15 without a fraction (`3`, not `3.0`), others in their
    /// shortest round-tripping form. Non-finite values have no JSON form; callers quote them.
    mutating func append(double value: Double) {
        if value.rounded() == value && abs(value) < 1e15 {
            append(integer: Int64(value))
        } else {
            append(value.description)
        }
    }

    /// The bytes gathered and not yet written out.
    var count: Int { bytes.count }

    /// Takes back the last `count` bytes appended, as text.
    mutating func removeLast(_ count: Int) -> String {
        let text = String(decoding: bytes[(bytes.count - count)...], as: UTF8.self)
        bytes.removeLast(count)
        return text
    }

    /// Whether enough has gathered to write out.
    var isFull: Bool { bytes.count >= flushThreshold }

    /// Writes everything out (retrying short writes); a closed pipe ends the process quietly, as `head` expects.
    mutating func flush() {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { exit(0) }
                    FileHandle.standardError.write(Data("coredata: error: writing the output: \(String(cString: strerror(errno)))\n".utf8))
                    exit(ExitStatus.runtimeFailure)
                }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
