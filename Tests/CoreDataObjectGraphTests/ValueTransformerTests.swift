import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// A class of the program stored through a transformer, as Apple's documentation stores `UIColor`.
final class TransformedColor: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String
    init(name: String) { self.name = name }
    func encode(with coder: NSCoder) { coder.encode(name, forKey: "name") }
    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
    }
}

/// The transformer Apple's documentation writes for such a class.
final class TransformedColorTransformer: NSSecureUnarchiveFromDataTransformer {
    static let name = NSValueTransformerName(rawValue: "TransformedColorTransformer")
    override static var allowedTopLevelClasses: [AnyClass] { [TransformedColor.self] }
}

/// A custom transformer of the classic kind: a value to `Data` and back.
final class CommaListTransformer: ValueTransformer {
    override class func transformedValueClass() -> AnyClass { NSData.self }
    override class func allowsReverseTransformation() -> Bool { true }
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? [String]).map { Data($0.joined(separator: ",").utf8) }
    }
    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).map { String(decoding: $0, as: UTF8.self).split(separator: ",").map(String.init) }
    }
}

/// Transformable attributes read and write through the transformer their model names, and the store keeps the
/// transformed bytes as Apple's SQLite store does (`NSKeyedArchiver`'s format for the default transformer).
struct ValueTransformerTests {
    /// A `Document` entity with one transformable attribute per transformer under test.
    static func model() -> NSManagedObjectModel {
        let document = NSEntityDescription()
        document.name = "Document"
        func transformable(_ name: String, _ transformer: NSValueTransformerName?) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = .transformableAttributeType
            attribute.valueTransformerName = transformer?.rawValue
            attribute.isOptional = true
            return attribute
        }
        document.properties = [
            transformable("tags", .secureUnarchiveFromDataTransformerName),
            transformable("settings", NSValueTransformerName("NSSecureUnarchiveFromDataTransformerName")),
            transformable("anything", nil),
            transformable("color", TransformedColorTransformer.name),
            transformable("list", NSValueTransformerName("CommaListTransformer")),
            transformable("image", NSValueTransformerName("NoSuchTransformerRegistered")),
        ]
        let model = NSManagedObjectModel()
        model.entities = [document]
        return model
    }

    private static func register() {
        ValueTransformer.setValueTransformer(TransformedColorTransformer(), forName: TransformedColorTransformer.name)
        ValueTransformer.setValueTransformer(CommaListTransformer(), forName: NSValueTransformerName("CommaListTransformer"))
    }

    private func stack() throws -> (NSManagedObjectContext, URL) {
        Self.register()
        let url = try TemporaryDirectory.make().appendingPathComponent("Documents.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (context, url)
    }

    /// A fresh context on the same store, so values come from the store's bytes.
    private func reread(_ context: NSManagedObjectContext) -> NSManagedObjectContext {
        let fresh = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        fresh.persistentStoreCoordinator = context.persistentStoreCoordinator
        return fresh
    }

    private func column(_ name: String, of url: URL) throws -> Data? {
        let row = try Connection(path: url.path, mode: .readOnly).query("SELECT \(name) FROM ZDOCUMENT")[0]
        return row[0].blobValue.map { Data($0) }
    }

    @Test func theDefaultTransformerArchivesFoundationValuesAsNSKeyedArchiverDoes() throws {
        let (context, url) = try stack()
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        try context.performAndWait {
            let document = NSEntityDescription.insertNewObject(forEntityName: "Document", into: context)
            document.setValue(["swift", "linux"], forKey: "tags")
            document.setValue(["size": 12, "ratio": 1.5, "dark": true, "font": "Menlo", "opened": date,
                               "home": URL(string: "https://example.com/a")!, "id": uuid, "bytes": Data([1, 2])] as [String: Any],
                              forKey: "settings")
            document.setValue("a plain string", forKey: "anything")
            #expect(document.value(forKey: "tags") as? [String] == ["swift", "linux"])
            try context.save()
        }
        // The store holds keyed archives that Foundation's own unarchiver reads.
        let tags = try #require(try column("ZTAGS", of: url))
        #expect(tags.starts(with: Array("bplist00".utf8)))
        let unarchived = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: tags)
        #expect(unarchived as? [String] == ["swift", "linux"])
        let fresh = reread(context)
        try fresh.performAndWait {
            let document = try #require(try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Document")).first)
            #expect(document.value(forKey: "tags") as? [String] == ["swift", "linux"])
            let settings = try #require(document.value(forKey: "settings") as? [String: Any])
            #expect(settings["size"] as? Int == 12)
            #expect(settings["ratio"] as? Double == 1.5)
            #expect(settings["dark"] as? Bool == true)
            #expect(settings["font"] as? String == "Menlo")
            #expect(settings["opened"] as? Date == date)
            #expect(settings["home"] as? URL == URL(string: "https://example.com/a"))
            #expect(settings["id"] as? UUID == uuid)
            #expect(settings["bytes"] as? Data == Data([1, 2]))
            #expect(document.value(forKey: "anything") as? String == "a plain string")
            #expect(document.value(forKey: "tags", as: [String].self) == ["swift", "linux"], "typed reads transform too")
            #expect(!document.hasChanges)
        }
    }

    @Test func archivesFoundationsArchiverWroteReadBack() throws {
        let (context, url) = try stack()
        try context.performAndWait {
            _ = NSEntityDescription.insertNewObject(forEntityName: "Document", into: context)
            try context.save()
        }
        // What an app on Apple's platforms leaves in the column: NSKeyedArchiver's bytes.
        let archived = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: ["from", "foundation", NSNumber(value: 7)]),
                                                        requiringSecureCoding: true)
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute(sql: "UPDATE ZDOCUMENT SET ZTAGS = x'\(archived.map { String(format: "%02x", $0) }.joined())'")
        let fresh = reread(context)
        try fresh.performAndWait {
            let document = try #require(try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Document")).first)
            let tags = try #require(document.value(forKey: "tags") as? [Any])
            #expect(tags.count == 3)
            #expect(tags.prefix(2).compactMap { $0 as? String } == ["from", "foundation"])
            #expect(tags.last as? Int == 7)
        }
    }

    @Test func aSecureUnarchiveSubclassStoresItsAllowedClass() throws {
        let (context, url) = try stack()
        try context.performAndWait {
            let document = NSEntityDescription.insertNewObject(forEntityName: "Document", into: context)
            let teal = TransformedColor(name: "teal")
            document.setValue(teal, forKey: "color")
            #expect(document.value(forKey: "color") as? TransformedColor === teal, "the value set is the value read")
            try context.save()
        }
        let bytes = try #require(try column("ZCOLOR", of: url))
        let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [TransformedColor.self], from: bytes) as? TransformedColor
        #expect(decoded?.name == "teal")
        let fresh = reread(context)
        try fresh.performAndWait {
            let document = try #require(try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Document")).first)
            #expect((document.value(forKey: "color") as? TransformedColor)?.name == "teal")
        }
    }

    @Test func aClassOutsideTheAllowedListReadsAsNilWithTheReason() throws {
        let (context, url) = try stack()
        try context.performAndWait {
            _ = NSEntityDescription.insertNewObject(forEntityName: "Document", into: context)
            try context.save()
        }
        // A color archive in the column of the default transformer, which does not allow that class.
        let archived = try NSKeyedArchiver.archivedData(withRootObject: TransformedColor(name: "red"), requiringSecureCoding: true)
        try Connection(path: url.path, mode: .readWrite)
            .execute(sql: "UPDATE ZDOCUMENT SET ZTAGS = x'\(archived.map { String(format: "%02x", $0) }.joined())', ZSETTINGS = x'0102'")
        let fresh = reread(context)
        try fresh.performAndWait {
            let document = try #require(try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Document")).first)
            #expect(document.value(forKey: "tags") == nil)
            let reason = "\(document.faultingError.map { "\($0)" } ?? "")"
            #expect(reason.contains("Document.tags") && reason.contains("TransformedColor") && reason.contains("not among the allowed classes"))
            #expect(document.value(forKey: "settings") == nil)
            #expect("\(document.faultingError.map { "\($0)" } ?? "")".contains("not a keyed archive"))
        }
    }

    @Test func aCustomTransformerMakesTheStoredBytesAndReadsThemBack() throws {
        let (context, url) = try stack()
        try context.performAndWait {
            let document = NSEntityDescription.insertNewObject(forEntityName: "Document", into: context)
            document.setValue(["a", "b", "c"], forKey: "list")
            try context.save()
        }
        #expect(try column("ZLIST", of: url) == Data("a,b,c".utf8))
        let fresh = reread(context)
        try fresh.performAndWait {
            let document = try #require(try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Document")).first)
            #expect(document.value(forKey: "list") as? [String] == ["a", "b", "c"])
            #expect(document.changedValues().isEmpty)
            document.setValue(["d"], forKey: "list")
            #expect(document.changedValues()["list"] as? [String] == ["d"])
            #expect(document.committedValues(forKeys: ["list"])["list"] as? [String] == ["a", "b", "c"])
        }
    }

    @Test func anUnregisteredTransformerNameLeavesTheBytesAsData() throws {
        let (context, url) = try stack()
        try context.performAndWait {
            let document = NSEntityDescription.insertNewObject(forEntityName: "Document", into: context)
            document.setValue(Data([0xFF, 0xD8]), forKey: "image")
            #expect(document.value(forKey: "image") as? Data == Data([0xFF, 0xD8]))
            try context.save()
        }
        #expect(try column("ZIMAGE", of: url) == Data([0xFF, 0xD8]))
    }

    @Test func transformersRegisterByNameAsFoundationsDo() {
        Self.register()
        let name = NSValueTransformerName("CommaListTransformer")
        let transformer = try? #require(ValueTransformer(forName: name))
        #expect(transformer?.transformedValue(["x", "y"]) as? Data == Data("x,y".utf8))
        #expect(transformer?.reverseTransformedValue(Data("x,y".utf8)) as? [String] == ["x", "y"])
        #expect(ValueTransformer.valueTransformerNames().contains(name))
        #expect(ValueTransformer(forName: NSValueTransformerName("Unregistered")) == nil)
        let negate = ValueTransformer(forName: .negateBooleanTransformerName)
        #expect(negate?.transformedValue(true) as? Bool == false)
        #expect(ValueTransformer(forName: .isNilTransformerName)?.transformedValue(nil) as? Bool == true)
        let secure = NSSecureUnarchiveFromDataTransformer()
        let data = secure.reverseTransformedValue(["k": "v"]) as? Data
        #expect((secure.transformedValue(data) as? [String: String]) == ["k": "v"])
        #expect(secure.reverseTransformedValue(TransformedColor(name: "no")) == nil, "a class the default list does not allow")
    }

    @Test("Apple's transformable columns read through their transformers",
          .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: the Apple-store transformable test is skipped"))
    func appleWrittenTransformableValuesRead() throws {
        let copy = try Fixtures.copy("stores/coredataplus-derived-decimal-history/SampleModel2_V1.sqlite")
        let model = try #require(try SQLiteStoreFile(path: copy.path).cachedModel())
        let cover = try #require(model.entitiesByName["Book"]?.attributesByName["cover"])
        NSKeyedUnarchiver.setClass(TransformedCover.self, forClassName: "CoreDataPlus_Tests.Cover")
        if let name = cover.valueTransformerName {
            ValueTransformer.setValueTransformer(TransformedCoverTransformer(), forName: NSValueTransformerName(name))
        }
        // The texts decoded straight from the column by Foundation's unarchiver, by primary key.
        var expected: [Int64: String] = [:]
        for row in try Connection(path: copy.path, mode: .readOnly).query("SELECT Z_PK, ZCOVER FROM ZBOOK") {
            let bytes = Data(try #require(row[1].blobValue))
            let cover = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [TransformedCover.self], from: bytes) as? TransformedCover
            expected[try #require(row[0].int64Value)] = cover?.text
        }
        #expect(expected.count > 1 && expected.values.contains("default cover"))
        let stack = try TestStack(storeURL: copy, model: model)
        try stack.context.performAndWait {
            let books = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
            #expect(books.count == expected.count)
            for book in books {
                #expect((book.value(forKey: "cover") as? TransformedCover)?.text == expected[book.objectID.primaryKey], "\(book.objectID)")
            }
        }
    }
}

/// The fixture's `Cover` class, under another name on Linux (mapped with `NSKeyedUnarchiver.setClass`).
final class TransformedCover: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let text: String
    init(text: String) { self.text = text }
    func encode(with coder: NSCoder) { coder.encode(text, forKey: "text") }
    required init?(coder: NSCoder) {
        guard let text = coder.decodeObject(of: NSString.self, forKey: "text") else { return nil }
        self.text = text as String
    }
}

final class TransformedCoverTransformer: NSSecureUnarchiveFromDataTransformer {
    override static var allowedTopLevelClasses: [AnyClass] { [TransformedCover.self] }
}
