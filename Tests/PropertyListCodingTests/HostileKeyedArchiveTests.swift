import PropertyListCoding
import Testing

/// Malformed archives throw `PropertyListError`; nothing loops or crashes.
@Suite struct HostileKeyedArchiveTests {
    private func archive(_ objects: [PropertyListValue], top: PropertyListValue = .uid(1)) throws -> KeyedArchive {
        try KeyedArchive(plist: [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": top], "$objects": .array(objects),
        ])
    }

    private let arrayClass: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]
    private let stringClass: PropertyListValue = ["$classname": "NSString", "$classes": ["NSString", "NSObject"]]

    @Test func missingArchiveKeysAreRejected() {
        #expect(throws: PropertyListError.self) { try KeyedArchive(plist: [1]) }
        #expect(throws: PropertyListError.self) { try KeyedArchive(plist: ["$objects": [], "$top": [:], "$archiver": "x"]) }
        #expect(throws: PropertyListError.self) { try KeyedArchive(bytes: Array("bplist00".utf8)) }
    }

    @Test func danglingAndMalformedReferencesAreRejected() throws {
        #expect(throws: PropertyListError.self) { try archive(["$null"], top: .uid(5)).topObject() }
        #expect(throws: PropertyListError.self) { try archive(["$null", ["$class": .uid(7)]]).topObject() }
        #expect(throws: PropertyListError.self) { try archive(["$null", ["no": "class"]]).topObject() }
        #expect(throws: PropertyListError.self) { try archive(["$null", ["$class": .uid(2)], "not a class"]).topObject() }
        #expect(throws: PropertyListError.self) { try archive(["$null", ["$class": .uid(1)]]).topObject() }
        #expect(throws: PropertyListError.self) { try archive(["$null", "plain"]).topObject() }
        #expect(try archive(["$null", "plain"]).topValue() == .string("plain"))
        #expect(throws: PropertyListError.self) { try archive(["$null", .uid(1)]).topValue() }
    }

    @Test func selfContainingArraysAreWalkableButNotConvertible() throws {
        let archive = try archive(["$null", ["$class": .uid(2), "NS.objects": [.uid(1)]], arrayClass])
        let top = try archive.topObject()
        #expect(try top.elements() == [.object(top.reference)])
        #expect(throws: PropertyListError.self) { try archive.plainTopValue() }
    }

    @Test func aStringThatIsItsOwnTextIsRejected() throws {
        let archive = try archive(["$null", ["$class": .uid(2), "NS.string": .uid(1)], stringClass])
        #expect(throws: PropertyListError.self) { try archive.topObject().stringValue() }
    }

    @Test func aURLThatIsItsOwnBaseIsRejected() throws {
        let urlClass: PropertyListValue = ["$classname": "NSURL", "$classes": ["NSURL", "NSObject"]]
        let archive = try archive(["$null", ["$class": .uid(2), "NS.base": .uid(1), "NS.relative": .uid(3)], urlClass, "x"])
        #expect(throws: PropertyListError.self) { try archive.topObject().urlValue() }
    }

    @Test func wrongClassesAndMismatchedDictionariesAreRejected() throws {
        let dictionaryClass: PropertyListValue = ["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]]
        let mismatched = try archive(["$null", ["$class": .uid(2), "NS.keys": [.uid(3)], "NS.objects": []], dictionaryClass, "k"])
        #expect(throws: PropertyListError.self) { try mismatched.topObject().dictionaryEntries() }
        #expect(throws: PropertyListError.self) { try mismatched.topObject().elements() }
        #expect(throws: PropertyListError.self) { try mismatched.topObject().dateValue() }
        #expect(throws: PropertyListError.self) { try mismatched.topObject().uuidValue() }
        let nestedInline = try archive(["$null", ["$class": .uid(2), "NS.objects": [[[1]]]], arrayClass])
        #expect(throws: PropertyListError.self) { try nestedInline.topObject().elements() }
    }

    @Test func deeplyNestedArchivesHitTheDepthLimit() throws {
        // Object i holds object i + 1, 400 levels deep: no cycle, but deeper than plainValue follows.
        var objects: [PropertyListValue] = ["$null", arrayClass]
        for level in 0..<400 { objects.append(["$class": .uid(1), "NS.objects": [.uid(UInt64(level + 3))]]) }
        objects.append("leaf")
        let archive = try archive(objects, top: .uid(2))
        #expect(throws: PropertyListError.self) { try archive.plainTopValue() }
    }
}
