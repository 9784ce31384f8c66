import Foundation
import OpenCoreData
import Testing

/// Fetch indexes built in code as Apple's documentation shows: elements made from property descriptions, an index
/// whose name, elements and partial predicate are set after it is made, given to an entity's `indexes`.
struct FetchIndexDescriptionTests {
    private func makeModel() -> (NSManagedObjectModel, NSEntityDescription, NSAttributeDescription, NSFetchIndexDescription) {
        let place = NSEntityDescription()
        place.name = "Place"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        let latitude = NSAttributeDescription()
        latitude.name = "latitude"
        latitude.attributeType = .doubleAttributeType
        place.properties = [name, latitude]
        let byName = NSFetchIndexElementDescription(property: name, collationType: .binary)
        byName.isAscending = false
        let index = NSFetchIndexDescription(name: "draft", elements: [])
        index.name = "byName"
        index.elements = [byName]
        index.partialIndexPredicate = NSPredicate(format: "latitude > 0")
        let area = NSFetchIndexDescription(name: "byArea", elements: [NSFetchIndexElementDescription(property: latitude, collationType: .rTree)])
        place.indexes = [index, area]
        let model = NSManagedObjectModel()
        model.entities = [place]
        return (model, place, name, index)
    }

    /// Runs `body` on an `.xcdatamodel` package holding `contents`, in a directory removed afterwards.
    private func withModelPackage<R>(_ contents: String, _ body: (URL) throws -> R) throws -> R {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("Places.xcdatamodel")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: package.appendingPathComponent("contents"))
        return try body(package)
    }

    private func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("indexes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func anIndexKnowsItsEntityAndItsElementsTheirIndexAndProperty() throws {
        let (_, place, name, index) = makeModel()
        #expect(index.entity === place)
        #expect(index.name == "byName")
        let element = try #require(index.elements.first)
        #expect(element.indexDescription === index)
        #expect(element.property === name)
        #expect(element.propertyName == "name")
        #expect(element.collationType == .binary)
        #expect(!element.isAscending)
        #expect(index.partialIndexPredicate?.predicateFormat == "latitude > 0")
        #expect(place.indexes[1].elements[0].collationType == .rTree)
        #expect(NSFetchIndexElementType.rTree.rawValue == 1, "Apple's raw value, which compiled models store")
    }

    @Test func anElementMadeFromAPropertyFollowsItsRename() throws {
        let (_, _, name, index) = makeModel()
        name.name = "title"
        #expect(index.elements[0].propertyName == "title")
    }

    @Test func anElementNamedInAModelFileFindsItsPropertyThroughTheEntity() throws {
        let (_, place, name, _) = makeModel()
        let named = NSFetchIndexDescription(name: "named", elements: [NSFetchIndexElementDescription(propertyName: "name")])
        #expect(named.elements[0].property == nil, "no entity yet")
        place.indexes.append(named)
        #expect(named.elements[0].property === name)
    }

    @Test func indexesSurviveACompiledModel() throws {
        let (model, _, _, _) = makeModel()
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Places.mom")
        try CompiledModelWriter.archive(model).write(to: url)
        let back = try #require(try ModelLoader.loadModel(at: url).entitiesByName["Place"])
        #expect(back.indexes.map(\.name) == ["byName", "byArea"])
        let index = back.indexes[0]
        #expect(index.entity === back)
        #expect(index.partialIndexPredicate == NSPredicate(format: "latitude > 0"))
        #expect(index.elements.map(\.propertyName) == ["name"])
        #expect(index.elements[0].property === back.attributesByName["name"])
        #expect(!index.elements[0].isAscending)
        #expect(back.indexes[1].elements[0].collationType == .rTree)
        #expect(back.versionHash == model.entitiesByName["Place"]!.versionHash)
    }

    @Test func anXcodeModelsIndexesReadAsDescriptions() throws {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="22A380">
                <entity name="Place" representedClassName="Place" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <fetchIndex name="byName" partialIndexExpression="name != nil">
                        <fetchIndexElement property="name" type="Binary" order="descending"/>
                    </fetchIndex>
                </entity>
            </model>
            """
        let place = try #require(try withModelPackage(contents) { try ModelLoader.loadModel(at: $0) }.entitiesByName["Place"])
        let index = try #require(place.indexes.first)
        #expect(index.entity === place)
        #expect(index.partialIndexPredicate == NSPredicate(format: "name != nil"))
        #expect(index.elements[0].property === place.attributesByName["name"])
        #expect(!index.elements[0].isAscending)
    }

    @Test func aPartialIndexPredicateThatDoesNotParseIsAnError() throws {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="22A380">
                <entity name="Place" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <fetchIndex name="byName" partialIndexExpression="name ==">
                        <fetchIndexElement property="name" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
            </model>
            """
        #expect {
            _ = try withModelPackage(contents) { try ModelLoader.loadModel(at: $0) }
        } throws: { error in
            "\(error)".contains("partial index predicate") && "\(error)".contains("byName")
        }
    }
}
