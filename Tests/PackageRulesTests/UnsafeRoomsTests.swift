import Foundation
import Testing

/// Unsafe memory tricks live in two rooms, where their invariants are stated once: the object graph's storage
/// (`CoreDataObjectGraph/Storage`, with the `CSwiftRuntime` shim it calls) and SQLite's callback contexts
/// (`SQLiteDatabase/Unsafe`). `@exclusivity(unchecked)` counts too: Swift takes it only on a stored property's own
/// declaration, so the classes whose hot state carries it (`NSManagedObject`, `NSManagedObjectContext`) are declared
/// in the storage room and extended elsewhere (docs/ARCHITECTURE.md).
@Suite struct UnsafeRoomsTests {
    static let rooms = ["Sources/CoreDataObjectGraph/Storage/", "Sources/SQLiteDatabase/Unsafe/", "Sources/CSwiftRuntime/"]
    static let tricks = [
        "Unmanaged", "swift_tryRetain", "_withUnsafeGuaranteedRef", "unowned(unsafe)", "@exclusivity(unchecked)",
    ]

    @Test func unsafeTricksAppearOnlyInTheRooms() {
        var outside: [String] = []
        for file in SourceFiles.swiftFiles(under: "Sources") where !Self.rooms.contains(where: file.path.hasPrefix) {
            for trick in Self.tricks where file.text.contains(trick) {
                outside.append("\(file.path) uses \(trick)")
            }
        }
        #expect(outside.isEmpty, "\(outside.joined(separator: "\n"))")
    }

    @Test func theRoomsExist() {
        for room in Self.rooms.dropLast() {
            #expect(!SourceFiles.swiftFiles(under: room).isEmpty, "\(room) holds no Swift file")
        }
    }
}
