import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `faultingState` is 0 for a realized object and not 0 for a fault, as Apple's.
struct FaultingStateTests {
    @Test func aFaultHasANonZeroFaultingStateAndARealizedObjectZero() throws {
        let context = try FetchRequestExecuteTests.stack(at: TemporaryDirectory.make().appendingPathComponent("Items.sqlite"))
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("a", forKey: "name")
            #expect(item.faultingState == 0, "a new object is realized")
            try context.save()
            context.refresh(item, mergeChanges: false)
            #expect(item.isFault)
            #expect(item.faultingState != 0)
            _ = item.value(forKey: "name")
            #expect(!item.isFault)
            #expect(item.faultingState == 0)
        }
    }
}
