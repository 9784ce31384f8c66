// Apple's parameterless initialisers, for models built in code as Apple's documentation shows: create, then set
// `name`, `attributeType`, `destinationEntity`, `properties`, … (`NSEntityDescription()` is with its class).

extension NSAttributeDescription {
    /// An attribute with no name and an undefined type yet.
    public convenience init() { self.init(name: "", type: .undefinedAttributeType) }
}

extension NSRelationshipDescription {
    /// A relationship with no name and no destination yet.
    public convenience init() { self.init(name: "", destinationEntityName: "") }
}

extension NSFetchedPropertyDescription {
    /// A fetched property with no name and no fetch request yet.
    public convenience init() { self.init(name: "") }
}
