/// Apple's entity descriptions are `NSObject`s, compared with `==` and kept in sets: code checks that an attribute
/// belongs to an entity (`attribute.entity == entity`). Equality here is identity, `NSObject`'s default; Apple does
/// not document a finer `isEqual:` for descriptions.
extension NSEntityDescription: Hashable {
    public static func == (lhs: NSEntityDescription, rhs: NSEntityDescription) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
