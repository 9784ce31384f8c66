import Foundation
import OpenCoreData
import Testing

/// Client code that imports Foundation and OpenCoreData compiles unchanged and gets Core Data's classes,
/// in type positions as well as expressions.
struct UmbrellaTests {
    @Test func appleNamesResolveToOurClassesBesideFoundation() throws {
        let predicate: NSPredicate = NSPredicate(format: "name BEGINSWITH[c] %@", "ad")
        let sort: NSSortDescriptor = NSSortDescriptor(key: "name", ascending: true)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
        request.predicate = predicate
        request.sortDescriptors = [sort]
        #expect(request.predicate?.predicateFormat == "name BEGINSWITH[c] \"ad\"")
        #expect(predicate.evaluate(with: ["name": "Ada"]))
        let expression: NSExpression = NSExpression(format: "pages.@count")
        #expect(expression.predicateFormat == "count:(pages)")
        // A Swift initializer cannot return a subclass; the factory gives the compound class.
        let parsed = NSPredicate.predicate(for: NSPredicate(format: "a == 1 AND b == 2").predicateNode)
        #expect((parsed as? NSCompoundPredicate)?.subpredicates.count == 2)
    }
}
