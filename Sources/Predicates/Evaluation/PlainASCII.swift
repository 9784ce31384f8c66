/// Foundation's string comparisons decided on UTF-8 bytes, for text that is plain ASCII.
///
/// "Plain" means every byte is in 1...127: NUL is left out because Foundation's searches ignore it (`"[" CONTAINS
/// "[\0"` holds), and for LIKE so is CR, because CR LF is one character there. On plain ASCII, case folding is
/// ASCII lowercasing, diacritic folding changes nothing (ASCII has no combining marks), and Foundation's order is
/// byte order; the tests of ``PreparedStringComparison`` check each of these against Foundation.
enum PlainASCII {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let carriageReturns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D

    /// Whether every byte is in 1...127, and not CR (13) unless `allowingCarriageReturn`.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, allowingCarriageReturn: Bool = true) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        // Eight bytes at a time: no high bit set, and no zero byte (nor CR: a zero byte after XOR with CRs).
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if word & highBits != 0 || hasZeroByte(word) { return false }
            if !allowingCarriageReturn && hasZeroByte(word ^ carriageReturns) { return false }
            offset += 8
        }
        while offset < bytes.count {
            let byte = base[offset]
            if byte == 0 || byte >= 0x80 || (!allowingCarriageReturn && byte == 13) { return false }
            offset += 1
        }
        return true
    }

    /// Exact for any word: a byte that is zero leaves its high bit set in the result.
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }

    /// `A`…`Z` to `a`…`z`; every other byte unchanged.
    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }

    @inline(__always)
    private static func same(_ a: UInt8, _ b: UInt8, foldingCase: Bool) -> Bool {
        foldingCase ? lowercase(a) == lowercase(b) : a == b
    }

    /// Whether `a[aStart...]` and `b` agree over `b.count` bytes.
    @inline(__always)
    private static func agree(
        _ a: UnsafeBufferPointer<UInt8>, from aStart: Int, _ b: UnsafeBufferPointer<UInt8>, foldingCase: Bool
    ) -> Bool {
        var index = 0
        while index < b.count {
            if !same(a[aStart + index], b[index], foldingCase: foldingCase) { return false }
            index += 1
        }
        return true
    }

    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, foldingCase: Bool) -> Bool {
        a.count == b.count && agree(a, from: 0, b, foldingCase: foldingCase)
    }

    static func compare(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, foldingCase: Bool
    ) -> ComparisonOrder {
        for index in 0..<min(a.count, b.count) {
            let left = foldingCase ? lowercase(a[index]) : a[index]
            let right = foldingCase ? lowercase(b[index]) : b[index]
            if left != right { return left < right ? .ascending : .descending }
        }
        return a.count == b.count ? .same : (a.count < b.count ? .ascending : .descending)
    }

    /// BEGINSWITH; an empty prefix is never found, as in Foundation.
    static func hasPrefix(
        _ text: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>, foldingCase: Bool
    ) -> Bool {
        !prefix.isEmpty && prefix.count <= text.count && agree(text, from: 0, prefix, foldingCase: foldingCase)
    }

    /// ENDSWITH; an empty suffix is never found.
    static func hasSuffix(
        _ text: UnsafeBufferPointer<UInt8>, _ suffix: UnsafeBufferPointer<UInt8>, foldingCase: Bool
    ) -> Bool {
        !suffix.isEmpty && suffix.count <= text.count
            && agree(text, from: text.count - suffix.count, suffix, foldingCase: foldingCase)
    }

    /// CONTAINS; an empty part is never found.
    static func contains(
        _ text: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>, foldingCase: Bool
    ) -> Bool {
        guard let first = part.first, part.count <= text.count else { return false }
        let firstFolded = foldingCase ? lowercase(first) : first
        var start = 0
        while start <= text.count - part.count {
            let byte = foldingCase ? lowercase(text[start]) : text[start]
            if byte == firstFolded && agree(text, from: start, part, foldingCase: foldingCase) { return true }
            start += 1
        }
        return false
    }
}

/// The outcome of an ordering, without Foundation's `ComparisonResult` (which the byte path does not need).
enum ComparisonOrder {
    case ascending, same, descending
}
