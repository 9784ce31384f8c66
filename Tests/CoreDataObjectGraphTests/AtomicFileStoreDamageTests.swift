import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Damaged XML and binary store files, added through the coordinator: every one either opens (and every object then
/// reads) or is refused with a `CoreDataError` naming the file, never a crash; the file is never changed.
struct AtomicFileStoreDamageTests {
    static let variants = 250

    /// A byte string changed one way, chosen by `random`: truncated, a byte replaced, a run deleted, or a run repeated.
    static func damage(_ data: Data, _ random: inout SeededRandom) -> Data {
        var bytes = [UInt8](data)
        let at = Int(random.next(below: UInt64(bytes.count)))
        switch random.next(below: 4) {
        case 0: bytes.removeSubrange(at...)
        case 1: bytes[at] = UInt8(truncatingIfNeeded: random.next())
        case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next(below: 16))))
        default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + Int(random.next(below: 16)))], at: at)
        }
        return Data(bytes)
    }

    @Test(arguments: AtomicFileStoreTests.fileTypes)
    func damagedFilesOpenOrAreRefusedNamingTheFile(type: String) throws {
        let directory = try TemporaryDirectory.make()
        let url = directory.appendingPathComponent("people.store")
        let model = AtomicFileStoreTests.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: type, at: url)
        try AtomicFileStoreTests.fill(AtomicFileStoreTests.context(coordinator))
        let original = try Data(contentsOf: url)
        var random = SeededRandom(seed: type == NSXMLStoreType ? 18 : 81)
        var opened = 0, refused = 0
        for variant in 0..<Self.variants {
            let damaged = Self.damage(original, &random)
            let file = directory.appendingPathComponent("damaged-\(variant).store")
            try damaged.write(to: file)
            let reader = NSPersistentStoreCoordinator(managedObjectModel: model)
            do {
                try reader.addPersistentStore(ofType: type, at: file, options: [NSReadOnlyPersistentStoreOption: true])
                // What opened reads whole: every object of every entity, every relationship.
                _ = try AtomicFileStoreTests.summary(AtomicFileStoreTests.context(reader))
                opened += 1
            } catch let error as CoreDataError {
                #expect(error.message.hasPrefix(file.path), "variant \(variant): \(error.message)")
                refused += 1
            }
            #expect(try Data(contentsOf: file) == damaged)
        }
        #expect(opened + refused == Self.variants)
        #expect(refused > Self.variants / 4, "\(refused) of \(Self.variants) refused")
        print("\(type) store: \(Self.variants) damaged files, \(opened) opened, \(refused) refused naming the file")
    }
}
