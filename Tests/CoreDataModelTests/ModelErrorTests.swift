import CoreDataModel
import CoreDataTestSupport
import Foundation
import Testing

/// Bad model files give a `ModelError` naming the file and, for XML, the element path; never a crash.
struct ModelErrorTests {
    private func write(_ text: String, named name: String = "contents") throws -> URL {
        let url = try TemporaryDirectory.make().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func loadError(_ url: URL) -> ModelError? {
        do {
            _ = try ModelLoader.loadModel(at: url)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFileIsNamed() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Nope.xcdatamodeld")
        let error = try #require(loadError(url))
        #expect(error.file == url.path)
        #expect(error.reason.contains("no such file"))
    }

    @Test func malformedXMLGivesTheLine() throws {
        let url = try write("<model>\n  <entity name=\"A\">\n  </entit>\n</model>")
        let error = try #require(loadError(url))
        #expect(error.file == url.path)
        #expect(error.elementPath?.contains("line") == true)
    }

    @Test func unknownAttributeTypeGivesTheElementPath() throws {
        let url = try write("""
            <model><entity name="Recipe"><attribute name="title" attributeType="Strng"/></entity></model>
            """)
        let error = try #require(loadError(url))
        #expect(error.elementPath?.hasPrefix("/model/entity[@name='Recipe']/attribute[@name='title']") == true)
        #expect(error.reason.contains("Strng"))
    }

    @Test func unknownDestinationIsReported() throws {
        let url = try write("""
            <model><entity name="A"><relationship name="b" maxCount="1" destinationEntity="B"/></entity></model>
            """)
        let error = try #require(loadError(url))
        #expect(error.reason.contains("unknown destination entity B"))
    }

    @Test func invalidDefaultValueIsReported() throws {
        let url = try write("""
            <model><entity name="A"><attribute name="n" attributeType="Integer 16" defaultValueString="many"/></entity></model>
            """)
        let error = try #require(loadError(url))
        #expect(error.reason.contains("\"many\" is not a valid Integer 16 value"))
    }

    @Test func wrongRootElementIsReported() throws {
        let url = try write("<plist><dict/></plist>")
        let error = try #require(loadError(url))
        #expect(error.reason.contains("not an Xcode data model"))
    }

    @Test func emptyPackageIsReported() throws {
        let directory = try TemporaryDirectory.make().appendingPathComponent("Empty.xcdatamodeld")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let error = try #require(loadError(directory))
        #expect(error.reason.contains("no .xcdatamodel version"))
    }

    @Test func inheritanceCycleIsReported() throws {
        let url = try write("""
            <model><entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/></model>
            """)
        let error = try #require(loadError(url))
        #expect(error.reason.contains("inherits from itself"))
    }

    /// A model built in code (as inference from a store's `Z_PRIMARYKEY` builds one) keeps no loop after its cycles
    /// are cut: an entity that is its own parent, or one of a pair that are each other's, is not left among its
    /// former parent's subentities, where every walk down the tree would find it again forever.
    @Test func cutInheritanceCyclesLeaveATree() throws {
        let selfParent = NSEntityDescription(name: "Loop")
        selfParent.superentityName = "Loop"
        let first = NSEntityDescription(name: "First"), second = NSEntityDescription(name: "Second")
        first.superentityName = "Second"
        second.superentityName = "First"
        let model = NSManagedObjectModel(entities: [selfParent, first, second])
        for entity in model.entities {
            var seen = Set<ObjectIdentifier>()
            var stack = [entity]
            while let next = stack.popLast() {
                #expect(seen.insert(ObjectIdentifier(next)).inserted, "\(entity.entityName) reaches \(next.entityName) twice")
                if seen.count > 3 { break }
                stack += next.subentities
            }
        }
        #expect(selfParent.superentity == nil && selfParent.subentities.isEmpty)
        #expect(model.entities.filter { $0.superentity == nil }.count == 2, "one of the pair becomes a root")
    }
}
