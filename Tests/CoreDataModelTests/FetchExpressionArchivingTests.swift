import CoreDataModel
import CoreDataTestSupport
import Foundation
import Testing

/// A `FETCH(request, context, countOnly)` expression in a model's predicate is archived as Core Data's
/// `NSFetchRequestExpression` and read back as the same expression.
struct FetchExpressionArchivingTests {
    @Test func aFetchInAFetchedPropertysPredicateSurvivesCompiling() throws {
        let directory = try TemporaryDirectory.make(prefix: "momc")
        let version = directory.appendingPathComponent("Shop.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let predicate = "SELF IN FETCH($FETCH_SOURCE.request, $FETCH_SOURCE.managedObjectContext, NO)"
        try Data("""
            <model><entity name="A"><attribute name="x" optional="YES" attributeType="String"/>
            <fetchedProperty name="f"><fetchRequest name="r" entity="A" predicateString="\(predicate)"/></fetchedProperty></entity></model>
            """.utf8).write(to: version.appendingPathComponent("contents"))
        let output = try ModelCompiler.compile(version, into: directory.appendingPathComponent("Shop.mom"))
        let model = try ModelLoader.loadModel(at: output.url)
        let fetched = try #require(model.entitiesByName["A"]?.propertiesByName["f"] as? NSFetchedPropertyDescription)
        #expect(fetched.predicateFormat == predicate)
    }
}
