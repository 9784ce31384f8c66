import Foundation
import TerminalText

/// How dates are written: ISO 8601 in UTC with milliseconds, or seconds since 1970 or since 2001 (Core Data's
/// own reference date, as the store holds them).
enum DateStyle: String, CaseIterable {
    case iso, unix, apple
}

extension OutputBuffer {
    // MARK: JSON

    /// `text` as a JSON string literal: quotes, backslashes and C0 controls escaped, everything else as is. On a
    /// terminal (`forTerminal`) the characters the sanitiser would not send raw are escaped too
    /// (`TerminalSanitizer.escapeForJSON`), so the literal still decodes to exactly `text`.
    mutating func appendJSONString(_ text: String, forTerminal: Bool) {
        var text = text
        var needsTerminalPass = false
        text.withUTF8 { utf8 in
            if forTerminal { needsTerminalPass = utf8.contains { $0 >= 0x7F } }
            guard !needsTerminalPass else { return }
            appendJSONLiteral(utf8)
        }
        guard needsTerminalPass else { return }
        var literal = OutputBuffer.scratch()
        text.withUTF8 { literal.appendJSONLiteral($0) }
        append(TerminalSanitizer.escapeForJSON(String(decoding: literal.bytes, as: UTF8.self)))
    }

    private mutating func appendJSONLiteral(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): append("\\\"" as StaticString)
            case UInt8(ascii: "\\"): append("\\\\" as StaticString)
            case 0x0A: append("\\n" as StaticString)
            case 0x0D: append("\\r" as StaticString)
            case 0x09: append("\\t" as StaticString)
            case 0x08: append("\\b" as StaticString)
            case 0x0C: append("\\f" as StaticString)
            default:
                append("\\u00" as StaticString)
                append(Self.hexDigits[Int(byte >> 4)])
                append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        if runStart < utf8.count { append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // MARK: Delimited text

    /// One RFC 4180 field: quoted when it holds the separator, a quote, CR or LF, with quotes doubled.
    mutating func appendCSVField(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard Self.containsAny(utf8, UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A, 0x0D) else { append(contentsOf: utf8); return }
            append(UInt8(ascii: "\""))
            // Runs between quotes are copied whole; each quote ends a run and is written twice.
            var runStart = 0
            for index in 0..<utf8.count where utf8[index] == UInt8(ascii: "\"") {
                append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...index]))
                append(UInt8(ascii: "\""))
                runStart = index + 1
            }
            if runStart < utf8.count { append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
            append(UInt8(ascii: "\""))
        }
    }

    /// One tab-separated field: tab, newline, carriage return and backslash escaped as `\t`, `\n`, `\r`, `\\`
    /// (the convention of PostgreSQL's text format and most TSV readers), everything else as is.
    mutating func appendTSVField(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard Self.containsAny(utf8, 0x09, 0x0A, 0x0D, UInt8(ascii: "\\")) else {
                append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case 0x09: append("\\t" as StaticString)
                case 0x0A: append("\\n" as StaticString)
                case 0x0D: append("\\r" as StaticString)
                case UInt8(ascii: "\\"): append("\\\\" as StaticString)
                default: append(byte)
                }
            }
        }
    }

    /// Whether `utf8` holds any of four bytes, looked for eight bytes at a time: most fields hold none, and this
    /// scan is most of the cost of writing them.
    static func containsAny(_ utf8: UnsafeBufferPointer<UInt8>, _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= utf8.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if zeroBytes(word ^ spread(a)) | zeroBytes(word ^ spread(b)) | zeroBytes(word ^ spread(c)) | zeroBytes(word ^ spread(d)) != 0 {
                return true
            }
            index += 8
        }
        while index < utf8.count {
            let byte = base[index]
            if byte == a || byte == b || byte == c || byte == d { return true }
            index += 1
        }
        return false
    }

    /// `byte` in each of a word's eight bytes.
    @inline(__always) private static func spread(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    /// Not zero exactly when one of the word's bytes is zero (the high bit of the first zero byte is set).
    @inline(__always) private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    // MARK: Dates

    /// `date` in `style`; ISO 8601 is written digit by digit (proleptic Gregorian calendar, UTC, milliseconds).
    mutating func append(date: Date, style: DateStyle) {
        switch style {
        case .unix: append(double: date.timeIntervalSince1970)
        case .apple: append(double: date.timeIntervalSinceReferenceDate)
        case .iso: appendISO8601(date)
        }
    }

    private mutating func appendISO8601(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e14 else { append(seconds.description); return }
        let milliseconds = Int64((seconds * 1000).rounded(.down))
        let (days, dayMilliseconds) = floorDivide(milliseconds, 86_400_000)
        // Days since 1970-01-01 to a civil date (the well-known era-based conversion).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        if year < 0 { append(UInt8(ascii: "-")) }
        appendDigits(abs(year), width: 4)
        append(UInt8(ascii: "-")); appendDigits(month, width: 2)
        append(UInt8(ascii: "-")); appendDigits(day, width: 2)
        append(UInt8(ascii: "T")); appendDigits(dayMilliseconds / 3_600_000, width: 2)
        append(UInt8(ascii: ":")); appendDigits(dayMilliseconds / 60_000 % 60, width: 2)
        append(UInt8(ascii: ":")); appendDigits(dayMilliseconds / 1000 % 60, width: 2)
        append(UInt8(ascii: ".")); appendDigits(dayMilliseconds % 1000, width: 3)
        append(UInt8(ascii: "Z"))
    }

    private func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    private mutating func appendDigits(_ value: Int64, width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        if value >= divisor * 10 { append(integer: value); return }
        var remaining = value
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }
}
