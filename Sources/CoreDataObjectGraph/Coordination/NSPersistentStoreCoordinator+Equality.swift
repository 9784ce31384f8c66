/// Apple's coordinators are `NSObject`s: `==` and hashing are the object's identity, so code checks that two
/// contexts share one coordinator (`main.persistentStoreCoordinator == background.persistentStoreCoordinator`).
extension NSPersistentStoreCoordinator: Hashable {
    public static func == (lhs: NSPersistentStoreCoordinator, rhs: NSPersistentStoreCoordinator) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
