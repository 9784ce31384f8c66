extension NSPersistentStoreCoordinator {
    /// Store options as the stores read them. Apple's coordinator takes `[AnyHashable: Any]` (code passes
    /// `[NSObject: AnyObject]`, `[String: Any]` or a store's own `options`); every option key Core Data defines is a
    /// string, so a key of another type names no option and is kept by its description.
    static func stringKeyed(_ options: [AnyHashable: Any]?) -> [String: Any] {
        guard let options else { return [:] }
        var keyed: [String: Any] = [:]
        keyed.reserveCapacity(options.count)
        for (key, value) in options {
            keyed[(key.base as? String) ?? String(describing: key.base)] = value
        }
        return keyed
    }
}
