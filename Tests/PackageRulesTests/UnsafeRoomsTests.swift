import Foundation
import Testing

/// Unsafe memory tricks live in one room, `Sources/CoreDataObjectGraph/Storage`, where their invariants are stated
/// once (`MemorySafety.swift`), with the `CSwiftRuntime` shim they call in its `CSwiftRuntime` folder.
/// `@exclusivity(unchecked)` counts too: Swift takes it only on a stored property's own declaration, so the classes
/// whose hot state carries it (`NSManagedObject`, `NSManagedObjectContext`) are declared in the room and extended
/// elsewhere (docs/ARCHITECTURE.md). SQLite's callback contexts are typed heap cells (`CallbackContext`), no trick.
@Suite struct UnsafeRoomsTests {
    static let room = "Sources/CoreDataObjectGraph/Storage/"
    static let tricks = [
        "Unmanaged", "swift_tryRetain", "_withUnsafeGuaranteedRef", "unowned(unsafe)", "@exclusivity(unchecked)",
    ]

    @Test func unsafeTricksAppearOnlyInTheRoom() {
        var outside: [String] = []
        for file in SourceFiles.files(under: "Sources", extensions: ["swift", "h", "c"]) where !file.path.hasPrefix(Self.room) {
            for trick in Self.tricks where file.text.contains(trick) {
                outside.append("\(file.path) uses \(trick)")
            }
        }
        #expect(outside.isEmpty, "\(outside.joined(separator: "\n"))")
    }

    /// The guard above must see every trick in the room, or it would pass on a misread tree.
    @Test func theRoomHoldsTheTricksAndTheShim() {
        let files = SourceFiles.files(under: Self.room, extensions: ["swift", "h", "c"])
        for trick in Self.tricks {
            #expect(files.contains { $0.text.contains(trick) }, "no file of \(Self.room) mentions \(trick)")
        }
        #expect(files.contains { $0.path == Self.room + "CSwiftRuntime/shim.h" }, "the runtime shim is not in the room")
    }
}
