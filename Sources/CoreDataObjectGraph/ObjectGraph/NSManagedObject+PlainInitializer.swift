import CoreDataModel

extension NSManagedObject {
    /// An object of this class's entity in no context: Apple's `Person()` (the `init()` every Objective-C object has,
    /// which Core Data allows with a logged "Failed to call designated initializer") makes such an object, and code
    /// hands it to APIs that skip objects without a context. Insert it with `NSManagedObjectContext.insert(_:)` to use
    /// it; `entity` is the class's entity when a loaded model claims the class, else an unnamed one (`entity()`).
    public convenience init() {
        self.init(entity: Self.entity(), insertInto: nil)
    }
}
