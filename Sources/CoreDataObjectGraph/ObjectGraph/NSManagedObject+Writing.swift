import CoreDataModel

extension NSManagedObject {
    /// Sets a transient value. Stored properties become writable with the write half (change tracking and saving).
    public func setValue(_ value: Any?, forKey key: String) {
        guard let property = entity.propertiesByName[key] else {
            preconditionFailure("[<\(entity.name)> setValue:forUndefinedKey:]: the entity \(entity.name) is not key value coding-compliant for the key \"\(key)\".")
        }
        guard property.isTransient else {
            preconditionFailure("\(entity.name).\(key) is stored: changing stored values needs the write half of the object graph, which this build does not have yet")
        }
        transientValues[key] = value
    }
}
