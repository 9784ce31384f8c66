import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// Every Apple-written plist in the fixtures: parse, round-trip through both formats, compare with Foundation.
@Suite(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
struct FixturePropertyListTests {
    static let plistFiles = FixtureFiles.compiledModels + FixtureFiles.versionInfoPlists
        + FixtureFiles.currentVersionPlists + FixtureFiles.oldFormatArchives

    @Test func fixturesAreFound() {
        #expect(FixtureFiles.compiledModels.count >= 6)
        #expect(FixtureFiles.versionInfoPlists.count >= 2)
        #expect(FixtureFiles.currentVersionPlists.count >= 4)
        #expect(FixtureFiles.stores.count >= 8)
    }

    @Test(arguments: plistFiles)
    func fixturePlistRoundTrips(path: String) throws {
        let bytes = try FixtureFiles.bytes(path)
        try checkRoundTrips(bytes, label: path)
    }

    @Test(.enabled(if: FixtureFiles.hasSQLite3, "the sqlite3 command-line tool is not installed"),
          arguments: FixtureFiles.stores)
    func storeMetadataRoundTrips(store: String) throws {
        let blobs = try FixtureFiles.blobs(fromStore: store, query: "SELECT hex(Z_PLIST) FROM Z_METADATA")
        #expect(blobs.count == 1)
        for blob in blobs {
            try checkRoundTrips(blob, label: store)
            let metadata = try PropertyList.read(blob)
            #expect(metadata["NSStoreType"] == "SQLite")
            #expect(metadata["NSPersistenceFrameworkVersion"]?.intValue != nil)
            let hashes = try #require(metadata["NSStoreModelVersionHashes"]?.dictionaryValue)
            #expect(!hashes.isEmpty)
            #expect(hashes.values.allSatisfy { $0.dataValue?.count == 32 })
        }
    }

    /// Parse; binary → value → binary → value; value → XML → value; Foundation agrees when there are no UIDs.
    private func checkRoundTrips(_ bytes: [UInt8], label: String) throws {
        let value = try PropertyList.read(bytes)
        let binary = BinaryPropertyListWriter().write(value)
        #expect(try BinaryPropertyListReader().read(binary) == value, "\(label): binary round trip")
        if !value.containsNull {
            let xml = try XMLPropertyListWriter().write(value)
            #expect(try XMLPropertyListReader().read(xml) == value, "\(label): XML round trip")
        }
        if !value.containsArchiveOnlyValues {
            #expect(try FoundationBridge.foundationRead(Data(bytes)) == value, "\(label): Foundation reads the original")
            #expect(try FoundationBridge.foundationRead(binary) == value, "\(label): Foundation reads our copy")
        } else {
            // Foundation cannot show UIDs; it must still accept our rewrite of an archive.
            #expect(throws: Never.self) { try PropertyListSerialization.propertyList(from: binary, format: nil) }
        }
    }
}

extension PropertyListValue {
    /// Whether a `.null` appears anywhere (XML cannot hold it).
    var containsNull: Bool {
        switch self {
        case .null: return true
        case .array(let elements): return elements.contains { $0.containsNull }
        case .dictionary(let entries): return entries.values.contains { $0.containsNull }
        default: return false
        }
    }
}
