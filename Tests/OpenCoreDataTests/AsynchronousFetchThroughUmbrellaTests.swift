import Foundation
import OpenCoreData
import Testing

/// A managed object class as Xcode generates one (with `@Managed` for `@NSManaged`).
final class Car: NSManagedObject {
    @Managed var make: String?
}

/// Apple's asynchronous fetch as its documentation writes it, with only `import OpenCoreData`: a typed request, the
/// completion block reading `finalResult` as `[Car]`, and `execute(_:)` from a perform block and from `async` code.
struct AsynchronousFetchThroughUmbrellaTests {
    private func makeContainer() -> NSPersistentContainer {
        let car = NSEntityDescription()
        car.name = "Car"
        car.managedObjectClassName = "Car"
        let make = NSAttributeDescription()
        make.name = "make"
        make.attributeType = .stringAttributeType
        car.properties = [make]
        let model = NSManagedObjectModel()
        model.entities = [car]
        let container = NSPersistentContainer(name: "Cars", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        return container
    }

    @Test func theDocumentedCallsCompileAndDeliverTypedObjects() async throws {
        let context = makeContainer().newBackgroundContext()
        try context.performAndWait {
            for make in ["Volvo", "Fiat"] { Car(context: context).make = make }
            try context.save()
        }
        nonisolated(unsafe) var makes: [String] = []
        let request = NSFetchRequest<Car>(entityName: "Car")
        request.sortDescriptors = [NSSortDescriptor(key: "make", ascending: true)]
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: request) { result in
            let cars = result.finalResult ?? []
            makes = cars.map { $0.make ?? "?" }
        }
        try context.performAndWait {
            try context.execute(asyncRequest)  // the result may be discarded, as Apple's
        }
        context.performAndWait {}
        #expect(makes == ["Fiat", "Volvo"])

        makes = []
        let result = try await context.perform { try context.execute(asyncRequest) }
        #expect(result is NSPersistentStoreAsynchronousResult)
        await context.perform(schedule: .enqueued) {}
        #expect(makes == ["Fiat", "Volvo"])
    }
}
