import Foundation

/// A strict RFC 4180 reader for the tests: records end with CRLF, a field is either plain (no quote, comma, CR or
/// LF) or quoted with inner quotes doubled, and anything else is an error naming the byte offset.
enum StrictCSVReader {
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "CSV is malformed at byte \(offset): \(reason)" }
    }

    static func records(_ data: Data) throws -> [[String]] {
        let bytes = [UInt8](data)
        var records: [[String]] = []
        var record: [String] = []
        var index = 0
        guard !bytes.isEmpty else { return [] }
        while true {
            var field: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while true {
                    guard index < bytes.count else { throw Malformed(offset: index, reason: "unterminated quoted field") }
                    if bytes[index] == UInt8(ascii: "\"") {
                        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                            field.append(UInt8(ascii: "\"")); index += 2
                        } else {
                            index += 1; break
                        }
                    } else {
                        field.append(bytes[index]); index += 1
                    }
                }
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != 0x0D {
                    if bytes[index] == UInt8(ascii: "\"") || bytes[index] == 0x0A {
                        throw Malformed(offset: index, reason: "a quote or line feed in an unquoted field")
                    }
                    field.append(bytes[index]); index += 1
                }
            }
            guard let text = String(validating: field, as: UTF8.self) else { throw Malformed(offset: index, reason: "not UTF-8") }
            record.append(text)
            guard index < bytes.count else { throw Malformed(offset: index, reason: "the last record does not end with CRLF") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A else {
                throw Malformed(offset: index, reason: "expected a comma or CRLF after a field")
            }
            index += 2
            records.append(record)
            record = []
            if index == bytes.count { return records }
        }
    }
}
