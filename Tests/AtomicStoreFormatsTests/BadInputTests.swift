import AtomicStoreFormats
import CoreDataModel
import Foundation
import PropertyListCoding
import Testing

/// Bad files get an error naming the file, the place (line and column, byte, or object) and what is wrong.
@Suite("Atomic store formats: bad input")
struct BadInputTests {
    static let model = BinaryContainerTests.model

    static func xml(_ objects: String, nextObjectID: Int = 9) -> Data {
        Data("""
            <?xml version="1.0" standalone="no"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>0E82928F-05F0-40AF-851B-1FA617A37DB3</UUID>
                    <nextObjectID>\(nextObjectID)</nextObjectID>
                    <metadata></metadata>
                </databaseInfo>
            \(objects)
            </database>
            """.utf8)
    }

    static let pet = """
            <object type="PET" id="z3">
                <attribute name="name" type="string">Rex</attribute>
                <relationship name="owner" type="1/1" destination="PERSON" idrefs="z1"></relationship>
            </object>
        """

    func xmlError(_ data: Data) -> StoreFileError? {
        do {
            _ = try XMLStoreFormat.decode(data, model: Self.model, file: "bad.xml")
            return nil
        } catch {
            return error
        }
    }

    @Test("A valid file reads, names folded either way")
    func validFile() throws {
        let person = """
                <object type="PERSON" id="z1">
                    <attribute name="AGE" type="int16">42</attribute>
                    <attribute name="born" type="date">445103622.25000000000000000000</attribute>
                    <relationship name="pets" type="0/0" destination="PET" idrefs="z3"></relationship>
                </object>
            """
        let contents = try XMLStoreFormat.decode(Self.xml(person + Self.pet), model: Self.model, file: "ok.xml")
        #expect(contents.objects.map(\.reference) == [1, 3])
        #expect(contents.objects[0].attributes == ["age": .integer(42), "born": .date(Date(timeIntervalSinceReferenceDate: 445_103_622.25))])
        #expect(contents.referenceHighWaterMark == 9)
    }

    @Test("Malformed XML: the line and column")
    func malformed() throws {
        let error = try #require(xmlError(Self.xml("    <object type=\"PET\" id=\"z3\">\n        <attribute name=\"name\" type=\"string\">x</attribute>\n")))
        #expect(error.file == "bad.xml")
        guard case .line(let line, _) = error.location else { Issue.record("no line: \(error)"); return }
        #expect(line >= 12)
        #expect(error.reason.hasPrefix("malformed XML"))
        #expect(error.description.hasPrefix("bad.xml: line \(line), column "))
    }

    @Test("Markup that crashes XMLParser is refused by byte before parsing")
    func internalSubset() throws {
        let error = try #require(xmlError(Data("<?xml version=\"1.0\"?><!DOCTYPE database [<!ENTITY e \"x\">]><database/>".utf8)))
        #expect(error.location == .byteOffset(40))  // the "[" of the internal subset
    }

    @Test("Not an XML store: another root element")
    func otherRoot() throws {
        let error = try #require(xmlError(Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>".utf8)))
        #expect(error.reason.contains("not <database>"))
        #expect(error.location == .line(2, column: 21))
    }

    @Test("A reference to a missing object names the relationship's line and the id")
    func missingObject() throws {
        let error = try #require(xmlError(Self.xml(Self.pet)))
        #expect(error.reason == "object z3 (Pet): relationship owner refers to z1, which is not an object of the file")
        #expect(error.location == .line(13, column: 79))  // the end of the <relationship> start tag
    }

    @Test("A duplicate id")
    func duplicateID() throws {
        let error = try #require(xmlError(Self.xml(Self.pet.replacingOccurrences(of: " idrefs=\"z1\"", with: "")
                                                   + "\n" + Self.pet.replacingOccurrences(of: " idrefs=\"z1\"", with: ""))))
        #expect(error.reason.contains("object z3 appears twice"))
        guard case .line(let line, _) = error.location else { Issue.record("no line"); return }
        #expect(line == 15)  // the second one
    }

    @Test("Values of the wrong type", arguments: [
        ("<attribute name=\"age\" type=\"int16\">forty</attribute>", "\"forty\" is not a valid value of attribute age (Integer 16)"),
        ("<attribute name=\"age\" type=\"int16\">70000</attribute>", "70000 does not fit attribute age (Integer 16)"),
        ("<attribute name=\"age\" type=\"string\">42</attribute>", "attribute age is Integer 16 in the model, but the file gives type \"string\""),
        ("<attribute name=\"born\" type=\"date\">yesterday</attribute>", "\"yesterday\" is not a valid value of attribute born (Date)"),
        ("<attribute name=\"height\" type=\"double\">2</attribute>", "which is not a stored property of the entity"),
    ])
    func wrongType(element: String, reason: String) throws {
        let error = try #require(xmlError(Self.xml("    <object type=\"PERSON\" id=\"z1\">\n        \(element)\n    </object>")))
        #expect(error.reason.contains(reason), "\(error)")
        // The attribute's line for what its text or name says, the object's for what the model's checks find.
        guard case .line(let line, _) = error.location else { Issue.record("no line: \(error)"); return }
        #expect(line == (reason.hasPrefix("70000") ? 11 : 12))
    }

    @Test("An unknown entity")
    func unknownEntity() throws {
        let error = try #require(xmlError(Self.xml("    <object type=\"DOG\" id=\"z1\"></object>")))
        #expect(error.reason == "object z1 has type \"DOG\", which is not an entity of the model")
        #expect(error.location == .line(11, column: 31))
    }

    @Test("Writing refuses contents that would make a broken file")
    func writerChecks() throws {
        let model = TestModels.everyType()
        let item = model.entitiesByName["Item"]!, folder = model.entitiesByName["Folder"]!
        let cases: [(StoreFileContents, String)] = [
            (StoreFileContents(metadata: [:], referenceHighWaterMark: 0, objects: [StoreFileObject(entity: item, reference: 1)]),
             "object z1 is of the abstract entity Item"),
            (StoreFileContents(metadata: [:], referenceHighWaterMark: 0, objects: [
                StoreFileObject(entity: folder, reference: 1, relationships: ["items": [2]])]),
             "object z1 (Folder): relationship items refers to z2, which is not an object of the file"),
            (StoreFileContents(metadata: [:], referenceHighWaterMark: 0, objects: [
                StoreFileObject(entity: folder, reference: 1, attributes: ["name": .integer(1)])]),
             "object z1 (Folder): attribute name (String) cannot hold the integer 1"),
            (StoreFileContents(metadata: [:], referenceHighWaterMark: 0, objects: [
                StoreFileObject(entity: folder, reference: 1, attributes: ["name": .string("bell \u{7}")])]),
             "attribute name of object z1 holds U+7, which XML 1.0 cannot carry"),
        ]
        for (contents, reason) in cases {
            #expect(throws: StoreFileError.self) { try XMLStoreFormat.encode(contents, model: model) }
            do {
                _ = try XMLStoreFormat.encode(contents, model: model)
            } catch {
                #expect(error.reason == reason)
            }
        }
    }

    // MARK: Binary

    func binaryError(_ data: Data) -> StoreFileError? {
        do {
            _ = try BinaryStoreFormat.decode(data, model: Self.model, file: "bad.binary")
            return nil
        } catch {
            return error
        }
    }

    @Test("A truncated binary file: the header, then the archives")
    func truncated() throws {
        let file = try BinaryContainerTests.appleLikeFile()
        let short = try #require(binaryError(file.prefix(20)))
        #expect(short.location == .byteOffset(20))
        #expect(short.reason.contains("64-byte header"))
        let cut = try #require(binaryError(file.prefix(file.count - 10)))
        #expect(cut.location == .byteOffset(16))
        #expect(cut.reason.contains("metadata archive"))
        #expect(cut.description.hasPrefix("bad.binary: byte 16: "))
    }

    @Test("A bad header: magic and format word")
    func badHeader() throws {
        var file = try BinaryContainerTests.appleLikeFile()
        file[0] = UInt8(ascii: "X")
        #expect(binaryError(file)?.location == .byteOffset(0))
        file = try BinaryContainerTests.appleLikeFile()
        file[11] = 2
        #expect(binaryError(file)?.location == .byteOffset(8))
    }

    @Test("A damaged map archive is placed at its byte")
    func damagedArchive() throws {
        var file = try BinaryContainerTests.appleLikeFile()
        file[64] = UInt8(ascii: "x")
        let error = try #require(binaryError(file))
        #expect(error.location == .byteOffset(64))
        #expect(error.reason.hasPrefix("the map archive"))
    }

    @Test("A missing destination, a duplicate key, a wrong value, a wrong value count, an unknown entity")
    func badMaps() throws {
        let missing = try #require(binaryError(try BinaryContainerTests.appleLikeFile { _, nodes in nodes.removeLast() }))
        #expect(missing.location == .object(1))
        #expect(missing.reason == "object 1 (Person): relationship pets refers to 5, which is not an object of the file")
        let duplicate = try #require(binaryError(try BinaryContainerTests.appleLikeFile { _, nodes in nodes.append(nodes[1]) }))
        #expect(duplicate.reason.contains("object 3 appears twice"))
        let wrong = try #require(binaryError(try BinaryContainerTests.appleLikeFile { map, nodes in
            nodes[1].1["NSAttributeValues"] = map.addArray([try! map.addPlainValue(.integer(7))]).uid
        }))
        #expect(wrong.location == .object(3))
        #expect(wrong.reason == "Pet: attribute name (String) cannot hold a integer")
        let count = try #require(binaryError(try BinaryContainerTests.appleLikeFile { map, nodes in
            nodes[1].1["NSAttributeValues"] = map.addArray([]).uid
        }))
        #expect(count.reason == "Pet has 1 stored attributes, but the map node holds 0 values")
        let entity = try #require(binaryError(try BinaryContainerTests.appleLikeFile { map, nodes in
            nodes[1].1["NSEntityName"] = map.addString("Dog").uid
        }))
        #expect(entity.reason == "entity \"Dog\" is not an entity of the model")
        #expect(entity.location == .object(3))
    }
}

@Suite("Atomic store formats: detection")
struct DetectionTests {
    @Test("A file's first bytes tell XML stores, binary stores and neither apart")
    func detect() throws {
        #expect(StoreFileFormat.detect(try BinaryContainerTests.appleLikeFile()) == .binary)
        #expect(StoreFileFormat.detect(BadInputTests.xml("")) == .xml)
        #expect(StoreFileFormat.detect(Data("\u{FEFF}<!-- x > y --><database/>".utf8)) == .xml)
        #expect(StoreFileFormat.detect(Data("<?xml version=\"1.0\"?><plist version=\"1.0\"/>".utf8)) == nil)
        #expect(StoreFileFormat.detect(Data("<databaseInfo>".utf8)) == nil)
        #expect(StoreFileFormat.detect(Data("SQLite format 3\u{0}".utf8)) == nil)
        #expect(StoreFileFormat.detect(Data()) == nil)
    }
}
