import CoreDataTestSupport
import Foundation

/// The entity version hashes Apple's Core Data recorded for a fixture store, read from the fixture's decoded
/// `METADATA*.txt` (lines `      Entity: <64 hex digits>` under `NSStoreModelVersionHashes:`).
enum AppleMetadataHashes {
    static func hashes(inMetadataFile relativePath: String) throws -> [String: Data] {
        let text = try String(contentsOf: try Fixtures.original(relativePath), encoding: .utf8)
        var result: [String: Data] = [:]
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  NSStoreModelVersionHashes:") { inside = true; continue }
            guard inside else { continue }
            guard line.hasPrefix("      ") else { break }
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { break }
            result[String(parts[0])] = Data(hex: parts[1].trimmingCharacters(in: .whitespaces))
        }
        return result
    }
}

extension Data {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }
}
