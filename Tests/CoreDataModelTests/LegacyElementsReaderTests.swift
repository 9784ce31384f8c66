import CoreDataModel
import CoreDataTestSupport
import Foundation
import PropertyListCoding
import Testing

/// The Xcode 3 `elements` model of Apple's CoreDataBooks sample, against the hash Apple's Core Data recorded in the
/// store beside it.
@Suite("Xcode 3 elements models (CoreDataBooks)",
       .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-model tests skipped"))
struct LegacyElementsFixtureTests {
    static let elementsFixture = "stores/coredatabooks-ios4/CoreDataBooks.xcdatamodel.elements"
    static let storeFixture = "stores/coredatabooks-ios4/CoreDataBooks.sqlite"

    @Test func bookEntityIsDecoded() throws {
        let model = try ModelLoader.loadModel(at: try Fixtures.copy(Self.elementsFixture))
        #expect(model.entities.map(\.entityName) == ["Book"])
        let book = try #require(model.entitiesByName["Book"])
        #expect(book.managedObjectClassName == "Book")
        #expect(!book.isAbstract)
        #expect(book.superentityName == nil)
        #expect(book.versionHashModifier == nil)
        #expect(book.userInfo?["com.apple.syncservices.Syncable"] as? String == "NO")
        #expect(book.properties.map(\.name) == ["author", "title", "copyright", "contents"])

        let attributes = book.attributesByName
        let author = try #require(attributes["author"])
        #expect(author.attributeType == .stringAttributeType)
        #expect(!author.isOptional && !author.isTransient && !author.isIndexed)
        #expect(author.attributeDefault == .string("Author"))
        #expect(author.minimumValueString == "1")
        #expect(author.validationPredicateFormats == ["length >= 1"])
        #expect(author.userInfo?["com.apple.syncservices.AutomaticResolutionPolicy"] as? String
                == "{PreferredClientType = app; PreferredRecord = Truth; }")
        let title = try #require(attributes["title"])
        #expect(title.attributeDefault == .string("Title") && !title.isOptional)
        let copyright = try #require(attributes["copyright"])
        #expect(copyright.attributeType == .dateAttributeType && copyright.isOptional && copyright.attributeDefault == nil)
        let contents = try #require(attributes["contents"])
        #expect(contents.attributeType == .stringAttributeType && contents.isOptional && !contents.isTransient)
    }

    /// The objective check. The archive declares a fourth attribute, `contents`, that the model which wrote the store
    /// did not have: the repository owner added it in Xcode and added the matching `ZCONTENTS` column to the store
    /// by hand (`ALTER TABLE … DEFAULT test`), leaving the store's metadata as Apple wrote it. So the file's own Book
    /// hash differs from the store's, and without `contents` it is exactly Apple's: name, abstract flag, and each
    /// attribute's optional/transient flags and type code as decoded.
    @Test func bookHashEqualsTheStoresMetadataOnceTheOwnersAttributeIsSetAside() throws {
        let model = try ModelLoader.loadModel(at: try Fixtures.copy(Self.elementsFixture))
        let book = try #require(model.entitiesByName["Book"])
        let storeHash = Data(hex: "4b2c05cdc2213e563008fe8dce7b01329e96c841c5df361d698bd7fc721a188d")
        #expect(try AppleMetadataHashes.hashes(inMetadataFile: "stores/coredatabooks-ios4/METADATA.txt") == ["Book": storeHash])

        #expect(book.versionHash != storeHash)
        book.setProperties(book.properties.filter { $0.name != "contents" })
        #expect(model.entitiesByName["Book"]!.versionHash == storeHash)
    }

    // MARK: Dispatch

    @Test func loadsAnElementsFileInsideAModelDirectory() throws {
        let directory = try TemporaryDirectory.make().appendingPathComponent("CoreDataBooks.xcdatamodel")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.copy(Self.elementsFixture),
                                         to: directory.appendingPathComponent("elements"))
        let versions = try ModelLoader.loadVersions(at: directory)
        #expect(versions.currentVersionName == "CoreDataBooks")
        #expect(versions.currentModel.entitiesByName["Book"]?.properties.count == 4)

        // The bare file, named `elements`, is read as the same model and named after its directory.
        let bare = try ModelLoader.loadVersions(at: directory.appendingPathComponent("elements"))
        #expect(bare.currentVersionName == "CoreDataBooks")
        #expect(bare.currentModel.entityVersionHashesByName == versions.currentModel.entityVersionHashesByName)
    }

    @Test func loadsAFileNamedDotElements() throws {
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy(Self.elementsFixture))
        #expect(versions.currentVersionName == "CoreDataBooks")
        #expect(versions.currentModel.sourceDescription?.hasSuffix("CoreDataBooks.xcdatamodel.elements") == true)
    }

    @Test func sniffsAnXcode3ArchiveWhateverItsName() throws {
        let copy = try Fixtures.copy(Self.elementsFixture)
        let renamed = copy.deletingLastPathComponent().appendingPathComponent("Books.model")
        try FileManager.default.moveItem(at: copy, to: renamed)
        let model = try ModelLoader.loadModel(at: renamed)
        #expect(model.entitiesByName["Book"]?.attributesByName["title"]?.attributeDefault == .string("Title"))
    }

    @Test func compiledModelsStillGoToTheCompiledReader() throws {
        let mom = try Fixtures.copy("models/coredataplus-compiled-momd/SampleModel.momd")
            .appendingPathComponent("SampleModel.mom")
        let data = try Data(contentsOf: mom)
        #expect(!LegacyElementsReader.isXcode3Document(data))
        #expect(!(try ModelLoader.loadModel(at: mom)).entities.isEmpty)
    }

    @Test func truncatedElementsFilesFailWithAnErrorNamingTheFile() throws {
        let data = try Data(contentsOf: try Fixtures.copy(Self.elementsFixture))
        let directory = try TemporaryDirectory.make().appendingPathComponent("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let inside = directory.appendingPathComponent("elements")
        let named = directory.deletingLastPathComponent().appendingPathComponent("Broken.xcdatamodel.elements")
        for length in [0, 8, data.count / 2, data.count - 1] {
            for url in [inside, named] {
                try data.prefix(length).write(to: url)
                let error = #expect(throws: ModelError.self) { try ModelLoader.loadModel(at: url) }
                #expect(error?.file == url.path, "truncated to \(length) bytes")
            }
            let error = #expect(throws: ModelError.self) { try ModelLoader.loadModel(at: directory) }
            #expect(error?.file == inside.path)
        }
    }

    @Test func theLayoutFileIsRefusedAsAnElementsFile() throws {
        let layout = try Fixtures.copy("stores/coredatabooks-ios4/CoreDataBooks.xcdatamodel.layout")
        let misnamed = layout.deletingLastPathComponent().appendingPathComponent("elements")
        try FileManager.default.moveItem(at: layout, to: misnamed)
        let error = #expect(throws: ModelError.self) { try ModelLoader.loadModel(at: misnamed) }
        #expect(error?.file == misnamed.path)
        #expect(error?.reason.contains("not an Xcode 3 data model") == true)
    }

    // MARK: Command line

    static let executable = Fixtures.projectRoot.appendingPathComponent(".build/debug/coredata")

    /// `coredata schema STORE --model ELEMENTS` (the executable must have been built: `swift build`).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path), "run `swift build` first"))
    func schemaCommandComparesHashesWithAnElementsModel() throws {
        let store = try Fixtures.copy(Self.storeFixture)
        let elements = try Fixtures.copy(Self.elementsFixture)
        let asIs = try runSchema(store: store, model: elements)
        #expect(asIs.contains("version hashes: DO NOT MATCH for Book"))

        // The same archive without the owner's `contents` attribute is the model that wrote the store.
        let original = try Data(contentsOf: elements)
        let edited = elements.deletingLastPathComponent().appendingPathComponent("Edited.xcdatamodel.elements")
        try ArchiveEditing.removingDictionaryKey("contents", from: original).write(to: edited)
        let output = try runSchema(store: store, model: edited)
        #expect(output.contains("version hashes: match the store's metadata"), "\(output)")
    }

    private func runSchema(store: URL, model: URL) throws -> String {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["schema", store.path, "--model", model.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: output, as: UTF8.self)
    }
}

/// Edits of a keyed archive's raw `$objects`, for building variants of a fixture.
enum ArchiveEditing {
    /// Removes the entry keyed `key` from every `NS.keys`/`NS.objects` dictionary of the archive.
    static func removingDictionaryKey(_ key: String, from data: Data) throws -> Data {
        guard case .dictionary(var root) = try PropertyList.read(data), case .array(var objects)? = root["$objects"],
              let keyIndex = objects.firstIndex(of: .string(key)) else {
            throw FixtureError.missing("an archive holding the string \(key)")
        }
        for (index, object) in objects.enumerated() {
            guard case .dictionary(var fields) = object, case .array(var keys)? = fields["NS.keys"],
                  case .array(var values)? = fields["NS.objects"],
                  let position = keys.firstIndex(of: .uid(UInt64(keyIndex))) else { continue }
            keys.remove(at: position)
            values.remove(at: position)
            fields["NS.keys"] = .array(keys)
            fields["NS.objects"] = .array(values)
            objects[index] = .dictionary(fields)
        }
        root["$objects"] = .array(objects)
        return BinaryPropertyListWriter().write(.dictionary(root))
    }
}

/// Relationships, inheritance, fetched properties and configurations, which the CoreDataBooks fixture lacks, in
/// archives built here in the same UML shape as the fixture. Where the fixture shows no example (relationship and
/// fetched-property settings, generalization objects), the shape follows store format reference §12.1's key names
/// and the UML layout of Xcode's other documents: these tests check our reading of that assumed shape.
@Suite("Xcode 3 elements models (built archives)")
struct LegacyElementsBuiltArchiveTests {
    @Test func relationshipsInheritanceAndConfigurationsAreDecoded() throws {
        let model = try LegacyElementsReader(file: "Library.xcdatamodel/elements").read(try Self.libraryArchive())
        #expect(model.entities.map(\.entityName) == ["Book", "Item", "Shelf"])
        #expect(model.versionIdentifiers == ["1.0"])
        #expect(model.configurationsByName == ["Public": ["Book", "Shelf"]])

        let item = try #require(model.entitiesByName["Item"])
        let book = try #require(model.entitiesByName["Book"])
        let shelf = try #require(model.entitiesByName["Shelf"])
        #expect(item.isAbstract && !book.isAbstract)
        #expect(book.superentity === item && item.subentities.map(\.entityName) == ["Book"])
        #expect(book.versionHashModifier == "v2")

        // An optional to-one keeps the minCount 1 old Xcode stored (§10.3); its maxCount is 1 whatever was stored.
        let toShelf = try #require(item.relationshipsByName["shelf"])
        #expect(toShelf.destinationEntity === shelf && toShelf.inverseRelationshipName == "items")
        #expect(toShelf.inverseEntityName == "Shelf")
        #expect(toShelf.isOptional && toShelf.minCount == 1 && toShelf.maxCount == 1 && !toShelf.isToMany)
        #expect(toShelf.deleteRule == .nullifyDeleteRule)

        let items = try #require(shelf.relationshipsByName["items"])
        #expect(items.destinationEntity === item && items.inverseRelationship === toShelf)
        #expect(items.isToMany && items.maxCount == 0 && items.minCount == 0 && items.isOrdered)
        #expect(items.deleteRule == .cascadeDeleteRule)

        let pages = try #require(book.attributesByName["pages"])
        #expect(pages.attributeType == .integer32AttributeType && pages.attributeDefault == .integer(0))
        #expect(pages.validationPredicateFormats == ["SELF >= 0", "SELF <= 5000"])
        #expect(book.attributesByName["summary"]?.isTransient == true)
        #expect(book.attributesByName["cover"]?.allowsExternalBinaryDataStorage == true)
        #expect(book.attributesByName["cover"]?.valueTransformerName == "CoverTransformer")

        let longBooks = try #require(shelf.propertiesByName["longBooks"] as? NSFetchedPropertyDescription)
        #expect(longBooks.fetchEntityName == "Book" && longBooks.predicateFormat == "pages > 300")
        // Fetched and transient properties are left out of the entity hash, as in every model format.
        let hashWithFetched = shelf.versionHash
        shelf.setProperties(shelf.properties.filter { !($0 is NSFetchedPropertyDescription) })
        #expect(shelf.versionHash == hashWithFetched)
    }

    @Test func storedCountsAreHashedVerbatim() throws {
        let legacy = try LegacyElementsReader(file: "legacy").read(try Self.libraryArchive(toOneMinCount: 1))
        let modern = try LegacyElementsReader(file: "modern").read(try Self.libraryArchive(toOneMinCount: 0))
        #expect(legacy.entitiesByName["Item"]!.relationshipsByName["shelf"]!.minCount == 1)
        #expect(modern.entitiesByName["Item"]!.relationshipsByName["shelf"]!.minCount == 0)
        #expect(legacy.entitiesByName["Item"]!.versionHash != modern.entitiesByName["Item"]!.versionHash)
    }

    @Test func badSettingsAreReportedWithTheFileAndTheProperty() throws {
        let badType = try Self.libraryArchive(pagesType: 4242)
        let typeError = #expect(throws: ModelError.self) { try LegacyElementsReader(file: "bad/elements").read(badType) }
        #expect(typeError?.file == "bad/elements")
        #expect(typeError?.reason == "attribute Book.pages has an unknown attribute type 4242")

        let badDefault = try Self.libraryArchive(pagesDefault: "many")
        let defaultError = #expect(throws: ModelError.self) { try LegacyElementsReader(file: "bad/elements").read(badDefault) }
        #expect(defaultError?.reason.contains("Book.pages has an invalid default value") == true)

        let notAnArchive = Data("bplist00 and then nothing".utf8)
        let archiveError = #expect(throws: ModelError.self) { try LegacyElementsReader(file: "junk").read(notAnArchive) }
        #expect(archiveError?.file == "junk")
    }

    // MARK: Building archives

    /// Item (abstract; `name`, to-one `shelf`) ← Book (`pages`, transient `summary`, `cover`); Shelf (ordered
    /// to-many `items`, fetched property `longBooks`).
    static func libraryArchive(toOneMinCount: Int64 = 1, pagesType: Int64 = 200, pagesDefault: String = "0") throws -> Data {
        var builder = LegacyArchiveBuilder()
        let package = builder.archive.reserveObject()
        let item = builder.archive.reserveObject(), book = builder.archive.reserveObject()
        let shelf = builder.archive.reserveObject()
        let toShelf = builder.archive.reserveObject(), items = builder.archive.reserveObject()

        let name = try builder.attribute(owner: item, name: "name", optional: false,
                                         settings: ["XD_PAttK_attributeType": .integer(700)])
        try builder.relationship(toShelf, owner: item, name: "shelf", settings: [
            "XD_PRK_destination": .reference(shelf), "XD_PRK_inverseRelationship": .reference(items),
            "XD_PRK_isToMany": .value(.bool(false)), "XD_PRK_minCount": .value(.integer(toOneMinCount)),
            "XD_PRK_maxCount": .value(.integer(0)), "XD_PRK_deleteRule": .value(.integer(1)),
        ])
        try builder.entity(item, package: package, name: "Item", properties: [("name", name), ("shelf", toShelf)],
                           settings: ["XD_PSK_isAbstract": .value(.bool(true))])

        let pages = try builder.attribute(owner: book, name: "pages", optional: true, settings: [
            "XD_PAttK_attributeType": .integer(pagesType), "XD_PAttK_defaultValueAsString": .string(pagesDefault),
            "XD_PAttK_minValueString": .string("0"), "XD_PAttK_maxValueString": .string("5000"),
        ])
        let summary = try builder.attribute(owner: book, name: "summary", optional: true, transient: true,
                                            settings: ["XD_PAttK_attributeType": .integer(700)])
        let cover = try builder.attribute(owner: book, name: "cover", optional: true, settings: [
            "XD_PAttK_attributeType": .integer(1800), "XD_PAttK_valueTransformerName": .string("CoverTransformer"),
            "XD_PAttK_allowsExternalBinaryDataStorage": .bool(true), "XD_PAttK_defaultValueAsString": .string(""),
        ])
        try builder.entity(book, package: package, name: "Book",
                           properties: [("pages", pages), ("summary", summary), ("cover", cover)],
                           settings: ["XD_PSK_versionHashModifier": .value(.string("v2"))], parent: item)

        try builder.relationship(items, owner: shelf, name: "items", settings: [
            "XD_PRK_destination": .reference(item), "XD_PRK_inverseRelationship": .reference(toShelf),
            "XD_PRK_isToMany": .value(.bool(true)), "XD_PRK_ordered": .value(.bool(true)),
            "XD_PRK_minCount": .value(.integer(0)), "XD_PRK_maxCount": .value(.integer(0)),
            "XD_PRK_deleteRule": .value(.integer(2)),
        ])
        let longBooks = builder.archive.reserveObject()
        try builder.property(longBooks, className: "XDPMFetchedProperty", owner: shelf, name: "longBooks", groups: [
            "XD_PPropStereotype": try builder.commonSettings(optional: true, transient: false),
            "XD_PFetchedProp_Stereotype": [
                "XD_PFPK_destination": .reference(book), "XD_PFPK_predicateString": .value(.string("pages > 300")),
            ],
        ])
        try builder.entity(shelf, package: package, name: "Shelf",
                           properties: [("items", items), ("longBooks", longBooks)], settings: [:])
        return try builder.finish(package: package, entities: [("Item", item), ("Book", book), ("Shelf", shelf)],
                                  versionIdentifier: "1.0", configurations: ["Public": [book, shelf]])
    }
}

/// Writes archives in the shape of Xcode 3's `elements` (see `LegacyElementsFixtureTests` for the real one).
struct LegacyArchiveBuilder {
    /// A setting's value: a plain value stored in `$objects`, or a reference to a model element.
    enum Setting {
        case value(PropertyListValue)
        case reference(ArchivedObjectReference)
    }

    var archive = KeyedArchiveBuilder()

    static let umlElement = ["XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"]
    static let umlClass = ["XDUMLClassImp", "XDUMLClassifierImp", "XDUMLNamespaceImp"] + umlElement
    static func propertyHierarchy(_ className: String) -> [String] {
        [className, "XDPMProperty", "XDUMLPropertyImp"] + umlElement
    }

    mutating func entity(
        _ reference: ArchivedObjectReference, package: ArchivedObjectReference, name: String,
        properties: [(String, ArchivedObjectReference)], settings: [String: Setting], parent: ArchivedObjectReference? = nil
    ) throws {
        var entitySettings: [String: Setting] = [
            "XD_PSK_entityClassName": .value(.string(name)), "XD_PSK_isAbstract": .value(.bool(false)),
            "XD_PSK_fetchRequestsArray": .reference(archive.addArray([], className: "NSMutableArray")),
        ]
        entitySettings.merge(settings) { _, given in given }
        var generalizations: [ArchivedObjectReference] = []
        if let parent {
            generalizations.append(archive.addObject(
                className: "XDUMLGeneralizationImp", classHierarchy: ["XDUMLGeneralizationImp"] + Self.umlElement,
                fields: ["_general": parent.uid, "_specific": reference.uid]))
        }
        let owned = try archive.addDictionary(keys: properties.map { archive.addString($0.0) }, values: properties.map(\.1),
                                              className: "NSMutableDictionary")
        try archive.defineObject(reference, className: "XDPMEntity", classHierarchy: ["XDPMEntity"] + Self.umlClass, fields: [
            "_name": archive.addString(name).uid, "_owner": package.uid, "_isAbstract": .bool(false),
            "XDBucketForOwnedAttributesstorage": owned.uid,
            "XDBucketForGeneralizationsstorage": archive.addArray(generalizations, className: "NSMutableArray").uid,
            "XDBucketForStereotypesstorage": try stereotypes(owner: reference, ["XD_PStereotype": entitySettings]).uid,
        ])
    }

    mutating func commonSettings(optional: Bool, transient: Bool) throws -> [String: Setting] {
        ["XD_PPSK_isOptional": .value(.bool(optional)), "XD_PPSK_isTransient": .value(.bool(transient)),
         "XD_PPSK_isIndexed": .value(.bool(false)), "XD_PPSK_versionHashModifier": .reference(KeyedArchiveBuilder.nullReference),
         "XD_PPSK_userInfo": .reference(try archive.addDictionary(keys: [], values: [], className: "NSMutableDictionary"))]
    }

    mutating func attribute(
        owner: ArchivedObjectReference, name: String, optional: Bool, transient: Bool = false,
        settings: [String: PropertyListValue]
    ) throws -> ArchivedObjectReference {
        let reference = archive.reserveObject()
        try property(reference, className: "XDPMAttribute", owner: owner, name: name, groups: [
            "XD_PPropStereotype": try commonSettings(optional: optional, transient: transient),
            "XD_PAtt_Stereotype": settings.mapValues { .value($0) },
        ])
        return reference
    }

    mutating func relationship(
        _ reference: ArchivedObjectReference, owner: ArchivedObjectReference, name: String, settings: [String: Setting]
    ) throws {
        try property(reference, className: "XDPMRelationship", owner: owner, name: name, groups: [
            "XD_PPropStereotype": try commonSettings(optional: true, transient: false), "XD_PRel_Stereotype": settings,
        ])
    }

    mutating func property(
        _ reference: ArchivedObjectReference, className: String, owner: ArchivedObjectReference, name: String,
        groups: [String: [String: Setting]]
    ) throws {
        try archive.defineObject(reference, className: className, classHierarchy: Self.propertyHierarchy(className), fields: [
            "_name": archive.addString(name).uid, "_owner": owner.uid, "_type": KeyedArchiveBuilder.nullReference.uid,
            "XDBucketForStereotypesstorage": try stereotypes(owner: reference, groups).uid,
        ])
    }

    /// The stereotype dictionary of an element: stereotype name → stereotype, whose owned attributes hold the settings.
    mutating func stereotypes(
        owner: ArchivedObjectReference, _ groups: [String: [String: Setting]]
    ) throws -> ArchivedObjectReference {
        var names: [ArchivedObjectReference] = [], stereotypes: [ArchivedObjectReference] = []
        for (groupName, settings) in groups.sorted(by: { $0.key < $1.key }) {
            let stereotype = archive.reserveObject()
            var keys: [ArchivedObjectReference] = [], values: [ArchivedObjectReference] = []
            for (key, setting) in settings.sorted(by: { $0.key < $1.key }) {
                let value: ArchivedObjectReference
                switch setting {
                case .value(let plain): value = try archive.addPlainValue(plain)
                case .reference(let reference): value = reference
                }
                keys.append(archive.addString(key))
                values.append(archive.addObject(
                    className: "XDUMLPropertyImp", classHierarchy: ["XDUMLPropertyImp"] + Self.umlElement,
                    fields: ["_name": archive.addString(key).uid, "_owner": stereotype.uid, "_default": value.uid]))
            }
            let owned = try archive.addDictionary(keys: keys, values: values, className: "NSMutableDictionary")
            try archive.defineObject(stereotype, className: "XDUMLStereotypeImp",
                                     classHierarchy: ["XDUMLStereotypeImp"] + Self.umlClass, fields: [
                                         "_name": archive.addString(groupName).uid, "_owner": owner.uid,
                                         "XDBucketForOwnedAttributesstorage": owned.uid,
                                     ])
            names.append(archive.addString(groupName))
            stereotypes.append(stereotype)
        }
        return try archive.addDictionary(keys: names, values: stereotypes, className: "NSMutableDictionary")
    }

    mutating func finish(
        package: ArchivedObjectReference, entities: [(String, ArchivedObjectReference)], versionIdentifier: String,
        configurations: [String: [ArchivedObjectReference]]
    ) throws -> Data {
        let model = archive.reserveObject()
        let classes = try archive.addDictionary(keys: entities.map { archive.addString($0.0) }, values: entities.map(\.1),
                                                className: "NSMutableDictionary")
        try archive.defineObject(package, className: "XDModelPackage",
                                 classHierarchy: ["XDModelPackage", "XDUMLPackageImp", "XDUMLNamespaceImp"] + Self.umlElement,
                                 fields: ["_name": archive.addString("").uid, "_xd_owningModel": model.uid,
                                          "XDBucketForClassesstorage": classes.uid])
        let configurationNames = configurations.keys.sorted()
        let members = configurationNames.map { archive.addArray(configurations[$0]!, className: "NSMutableSet") }
        let configurationsByName = try archive.addDictionary(keys: configurationNames.map { archive.addString($0) },
                                                             values: members, className: "NSMutableDictionary")
        try archive.defineObject(model, className: "XDPMModel", classHierarchy: ["XDPMModel", "XDModel", "NSObject"], fields: [
            "_xd_rootPackage": package.uid, "_modelVersionIdentifier": archive.addString(versionIdentifier).uid,
            "_configurationsByName": configurationsByName.uid, "_xd_modelName": archive.addString("Library.xcdatamodel").uid,
        ])
        archive.setTopObject(model)
        return try archive.binaryData()
    }
}
