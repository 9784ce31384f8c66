import CoreDataModel
import Foundation
import Testing

/// Inputs the fuzzer found (issue 16), kept as regression tests: each once stopped the program.
struct FuzzFoundModelTests {
    /// `.xcdatamodel/contents` with an attribute name that is not UTF-8 (found by mutating Apple's Recipes model):
    /// Foundation's XMLParser trapped; now a `ModelError` names the byte.
    @Test func contentsWithInvalidUTF8AttributeName() throws {
        let document = Array(#"<model><entity name="A"><attribute name="x" deriva"#.utf8) + [0xFF]
            + Array(#"ionExpression="y" attributeType="String"/></entity></model>"#.utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(document).write(to: url.appendingPathComponent("contents"))
        let error = #expect(throws: ModelError.self) { try ModelLoader.loadModel(at: url) }
        #expect(error?.description.contains("not valid UTF-8") == true)
    }

    /// A processing instruction without data and an attribute-list declaration: Foundation's XMLParser crashed.
    @Test(arguments: ["<model><?pi?><entity name=\"A\"/></model>",
                      "<!DOCTYPE model [<!ATTLIST model b CDATA #IMPLIED>]><model><entity name=\"A\"/></model>"])
    func contentsWithDangerousMarkup(document: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(document.utf8).write(to: url.appendingPathComponent("contents"))
        let error = #expect(throws: ModelError.self) { try ModelLoader.loadModel(at: url) }
        #expect(error?.description.contains("not accepted") == true)
    }
}
