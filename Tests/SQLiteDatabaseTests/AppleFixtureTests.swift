import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Every store that Apple's Core Data wrote, opened read-only from a temporary copy.
@Suite("Apple-written stores")
struct AppleFixtureTests {
    @Test(
        .enabled(if: Fixtures.isAvailable, Comment(rawValue: Fixtures.absenceMessage)),
        arguments: Fixtures.allStores())
    func storeOpensReadOnlyAndIsSound(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        let connection = try Connection(path: copy.path, mode: .readOnly)
        #expect(connection.isReadOnly)
        let tables = try connection.tables()
        #expect(tables.contains("Z_PRIMARYKEY"))
        #expect(tables.contains("Z_METADATA"))

        let entities = try connection.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        let names = try entities.mapRows { row in row.string(at: 1) ?? "" }
        #expect(!names.isEmpty)
        #expect(!names.contains(""))

        let metadata = try connection.prepare("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        #expect(try metadata.step())
        #expect(metadata.string(at: 1)?.isEmpty == false)
        let plist = metadata.blob(at: 2) ?? []
        #expect(plist.starts(with: Array("bplist".utf8)))

        #expect(try connection.integrityCheck() == ["ok"])
        #expect(try !connection.schemaStatements().isEmpty)
        for table in tables { #expect(try !connection.columns(in: table).isEmpty) }
    }
}
