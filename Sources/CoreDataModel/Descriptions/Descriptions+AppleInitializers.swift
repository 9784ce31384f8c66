// Apple's parameterless initialisers, for models built in code as Apple's documentation shows: create, then set
// `name`, `attributeType`, `destinationEntity`, `properties`, … (`NSEntityDescription()` and `NSAttributeDescription()`
// and `NSDerivedAttributeDescription()` are with their classes: a subclass may declare its own only if the
// superclass's is not in an extension).

extension NSRelationshipDescription {
    /// A relationship with no name and no destination yet.
    public convenience init() { self.init(name: "", destinationEntityName: "") }
}

extension NSFetchedPropertyDescription {
    /// A fetched property with no name and no fetch request yet.
    public convenience init() { self.init(name: "") }
}
