import Foundation

/// Apple's `NSManagedObjectID` adopts `NSCopying`; an ID is immutable, so its copy is the ID itself (as Apple's).
extension NSManagedObjectID: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
