/// Apple's contexts are `NSObject`s: `==` and hashing are the object's identity, so code compares a context with
/// its parent (`child.parent == main`), keeps contexts in sets, and uses them as dictionary keys.
extension NSManagedObjectContext: Hashable {
    public static func == (lhs: NSManagedObjectContext, rhs: NSManagedObjectContext) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
