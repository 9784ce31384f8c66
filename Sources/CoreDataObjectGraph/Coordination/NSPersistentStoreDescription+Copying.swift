import Foundation

/// Apple's `NSPersistentStoreDescription` adopts `NSCopying`: a container's descriptions are often copied and then
/// changed (another URL, one more option) without touching the original.
extension NSPersistentStoreDescription: NSCopying {
    /// An independent description with the same type, URL, configuration, options (pragmas included) and
    /// asynchronous flag; changing either afterwards leaves the other as it was.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreDescription()
        copy.type = type
        copy.url = url
        copy.configuration = configuration
        copy.options = options
        copy.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        return copy
    }
}
