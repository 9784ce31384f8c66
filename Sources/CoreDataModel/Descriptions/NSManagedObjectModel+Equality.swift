/// Apple's models are `NSObject`s compared with `==`: code checks that an entity belongs to the model it loaded
/// (`entity.managedObjectModel == model`), often a second load of the same file. Two models are equal here when they
/// are the same object or describe the same schema as Core Data judges schemas, by their entities' version hashes
/// (what a store's metadata records). Apple's `isEqual:` for models is not documented.
extension NSManagedObjectModel: Hashable {
    public static func == (lhs: NSManagedObjectModel, rhs: NSManagedObjectModel) -> Bool {
        lhs === rhs || lhs.entityVersionHashesByName == rhs.entityVersionHashesByName
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entityVersionHashesByName.keys.sorted())
    }
}
