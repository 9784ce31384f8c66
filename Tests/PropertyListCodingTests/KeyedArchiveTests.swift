import Foundation
import PropertyListCoding
import Testing

@Suite struct KeyedArchiveTests {
    static let plainValues: [PropertyListValue] = [
        "text", 42, -7, 2.5, true, .data(Data([1, 2, 3])), .date(Date(timeIntervalSinceReferenceDate: 12.5)),
        [], ["a", 1, [2, 3], ["nested": "dict"]], [:],
        ["name": "Recipe", "count": 3, "tags": ["x", "y"], "created": .date(Date(timeIntervalSinceReferenceDate: 1e8))],
        ["shared": "same", "again": "same", "list": ["same", "same"]],
    ]

    @Test(arguments: plainValues)
    func builtArchivesReadBackThroughOurReader(_ value: PropertyListValue) throws {
        var builder = KeyedArchiveBuilder()
        builder.setTopObject(try builder.add(value))
        let archive = try KeyedArchive(data: builder.binaryData())
        #expect(try archive.plainTopValue() == value)
    }

    @Test(arguments: plainValues)
    func foundationUnarchivesWhatWeBuild(_ value: PropertyListValue) throws {
        var builder = KeyedArchiveBuilder()
        builder.setTopObject(try builder.add(value))
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: builder.binaryData())
        unarchiver.requiresSecureCoding = false
        let object = try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey))
        #expect(try FoundationBridge.value(of: object) == value)
    }

    @Test(arguments: plainValues)
    func weReadWhatFoundationArchives(_ value: PropertyListValue) throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: FoundationBridge.object(for: value), requiringSecureCoding: false)
        #expect(try KeyedArchive(data: data).plainTopValue() == value)
    }

    @Test func archivesReadFromXMLPropertyListsToo() throws {
        let value: PropertyListValue = ["list": [1, "two"], "when": .date(Date(timeIntervalSinceReferenceDate: 60))]
        var builder = KeyedArchiveBuilder()
        builder.setTopObject(try builder.add(value))
        let ourXML = try PropertyList.write(builder.propertyList(), format: .xml)
        #expect(String(decoding: ourXML, as: UTF8.self).contains("<key>CF$UID</key>"))
        #expect(try KeyedArchive(data: ourXML).plainTopValue() == value)

        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(try FoundationBridge.object(for: value), forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        #expect(try KeyedArchive(data: archiver.encodedData).plainTopValue() == value)
    }

    @Test func foundationClassesDecodeFromAFoundationArchive() throws {
        let uuid = UUID()
        let root: NSArray = [
            NSMutableString(string: "mutable"), NSDate(timeIntervalSinceReferenceDate: 99), NSNull(), uuid as NSUUID,
            NSURL(string: "https://example.com/a?b=c")!, NSMutableData(data: Data([9, 8])),
            NSSet(array: ["only"]), NSOrderedSet(array: ["first", "second"]), NSMutableArray(array: [1, 2]),
        ]
        let archive = try KeyedArchive(data: NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
        let top = try archive.topObject()
        #expect(top.isCollection)
        let elements = try top.elements()
        #expect(elements.count == 9)
        func object(_ index: Int) throws -> ArchivedObject {
            try archive.object(#require(elements[index].objectReference))
        }
        #expect(elements[0] == .string("mutable"))
        #expect(try object(1).dateValue() == Date(timeIntervalSinceReferenceDate: 99))
        #expect(try object(2).className == "NSNull")
        #expect(try object(3).uuidValue() == uuid)
        #expect(try object(4).urlValue().absoluteString == "https://example.com/a?b=c")
        #expect(elements[5] == .data(Data([9, 8])))
        #expect(try object(6).elements() == [.string("only")])
        #expect(try object(7).elements() == [.string("first"), .string("second")])
        #expect(try object(8).elements() == [.integer(1), .integer(2)])
        #expect(try archive.plainValue(of: elements[2]) == .null)
        #expect(throws: PropertyListError.self) { try archive.plainValue(of: elements[3]) }
    }

    @Test func builderHelpersDecodeThroughReaderHelpersAndFoundation() throws {
        var builder = KeyedArchiveBuilder()
        let uuid = UUID()
        let url = URL(string: "file:///tmp/store.sqlite")!
        let uuidReference = builder.addUUID(uuid)
        let urlReference = builder.addURL(url)
        let setReference = builder.addArray([builder.addString("a")], className: "NSMutableSet")
        let root = try builder.addDictionary(
            keys: [builder.addString("uuid"), builder.addString("url"), builder.addString("set")],
            values: [uuidReference, urlReference, setReference], className: "NSMutableDictionary")
        builder.setTopObject(root)
        let data = try builder.binaryData()

        let archive = try KeyedArchive(data: data)
        let entries = try archive.topObject().stringKeyedEntries()
        #expect(try archive.object(#require(entries["uuid"]?.objectReference)).uuidValue() == uuid)
        #expect(try archive.object(#require(entries["url"]?.objectReference)).urlValue() == url)
        #expect(try archive.object(#require(entries["set"]?.objectReference)).className == "NSMutableSet")

        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        let decoded = try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NSDictionary)
        #expect((decoded["uuid"] as? NSUUID)?.uuidString == uuid.uuidString)
        #expect((decoded["url"] as? NSURL)?.absoluteString == url.absoluteString)
        #expect((decoded["set"] as? NSSet)?.contains("a") == true)
    }

    @Test func cyclicModelGraphsAreBuiltAndWalkedWithoutRecursion() throws {
        // The Core Data shape: model → NSEntities → entity → NSManagedObjectModel → model.
        var builder = KeyedArchiveBuilder()
        let model = builder.reserveObject()
        let entity = builder.reserveObject()
        let entities = try builder.addDictionary(keys: [builder.addString("Recipe")], values: [entity], className: "NSMutableDictionary")
        try builder.defineObject(model, className: "NSManagedObjectModel", fields: ["NSEntities": entities.uid])
        try builder.defineObject(entity, className: "NSEntityDescription", fields: [
            "NSEntityName": builder.addString("Recipe").uid, "NSManagedObjectModel": model.uid,
            "NSIsAbstract": false, "NSSuperentity": KeyedArchiveBuilder.nullReference.uid,
        ])
        builder.setTopObject(model)
        let archive = try KeyedArchive(data: builder.binaryData())

        let root = try archive.topObject()
        #expect(root.className == "NSManagedObjectModel")
        #expect(root.classHierarchy == ["NSManagedObjectModel", "NSObject"])
        let recipe = try archive.object(#require(try root.object(forKey: "NSEntities")?.stringKeyedEntries()["Recipe"]?.objectReference))
        #expect(try recipe.string(forKey: "NSEntityName") == "Recipe")
        #expect(try recipe.object(forKey: "NSManagedObjectModel")?.reference == root.reference)
        #expect(try recipe.object(forKey: "NSSuperentity") == nil)
        #expect(try recipe.value(forKey: "NSSuperentity") == .null)
        #expect(try recipe.value(forKey: "NSNotThere") == nil)
        #expect(try recipe.bool(forKey: "NSIsAbstract") == false)
        #expect(recipe.keys == ["NSEntityName", "NSIsAbstract", "NSManagedObjectModel", "NSSuperentity"])
        // A tree conversion must notice the cycle instead of recursing forever.
        #expect(throws: PropertyListError.self) { try archive.plainTopValue() }
    }

    @Test func knownKeysDictionariesDecodeLikeCoreDataWritesThem() throws {
        // The layout of Z_MODELCACHE's NSEntities: keys in searchMapping → keys (an NSArray), values in `values`.
        var builder = KeyedArchiveBuilder()
        let keys = builder.addArray([builder.addString("A"), builder.addString("B")])
        let mapping = builder.addObject(className: "NSKnownKeysMappingStrategy1", fields: ["keys": keys.uid, "length": 2, "version": 1])
        let emptyToken = builder.addString("__empty_slot_token__")
        let values = builder.addArray([builder.addString("first"), emptyToken])
        let dictionary = builder.addObject(className: "NSKnownKeysDictionary1", fields: [
            "searchMapping": mapping.uid, "values": values.uid, "emptyToken": emptyToken.uid, "version": 1,
        ])
        builder.setTopObject(dictionary)
        let archive = try KeyedArchive(data: builder.binaryData())
        let top = try archive.topObject()
        #expect(top.isKind(of: "NSDictionary"))
        #expect(try top.stringKeyedEntries() == ["A": .string("first")])
        #expect(try archive.plainTopValue() == ["A": "first"])
    }

    @Test func builderRejectsInconsistentGraphs() throws {
        var undefined = KeyedArchiveBuilder()
        undefined.setTopObject(undefined.reserveObject())
        #expect(throws: PropertyListError.self) { try undefined.propertyList() }

        var dangling = KeyedArchiveBuilder()
        dangling.setTopObject(dangling.addObject(className: "Thing", fields: ["other": .uid(99)]))
        #expect(throws: PropertyListError.self) { try dangling.propertyList() }

        var twice = KeyedArchiveBuilder()
        let reference = twice.reserveObject()
        try twice.defineObject(reference, className: "Thing", fields: [:])
        #expect(throws: PropertyListError.self) { try twice.defineObject(reference, className: "Thing", fields: [:]) }
        #expect(throws: PropertyListError.self) { try twice.add(.uid(1)) }
        #expect(throws: PropertyListError.self) { try twice.addDictionary(keys: [reference], values: []) }
    }
}
