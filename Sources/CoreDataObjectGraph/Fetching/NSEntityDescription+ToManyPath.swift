import CoreDataModel

extension NSEntityDescription {
    /// Where a key path of relationship names (`chef.recipes`, split at the dots) first reaches a to-many
    /// relationship through to-one ones: that part's index and the to-many's destination. Nil when a part before it
    /// is not a relationship, or none is to-many. Fetched collection operators (`chef.recipes.@count`) start there.
    func firstToMany(along parts: [String]) -> (index: Int, destination: NSEntityDescription)? {
        var current = self
        for (index, part) in parts.enumerated() {
            guard let relationship = current.propertiesByName[part] as? NSRelationshipDescription,
                  let destination = relationship.destinationEntity else { return nil }
            if relationship.isToMany { return (index, destination) }
            current = destination
        }
        return nil
    }
}
