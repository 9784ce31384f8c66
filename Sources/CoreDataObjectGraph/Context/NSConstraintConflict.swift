import CoreDataModel
import Foundation

/// A violation of an entity's uniqueness constraint found by a save: objects about to be saved share the constraint's
/// values with each other (a context-level conflict, ``databaseObject`` nil) or with a row already in the store (a
/// store-level conflict). A save hands its conflicts to the context's ``NSMergePolicy``; an error-policy save fails
/// with `NSManagedObjectConstraintMergeError` and the conflicts under `"conflictList"` in the error's `userInfo`.
open class NSConstraintConflict: NSObject, @unchecked Sendable {
    /// The names of the properties whose values together must be unique.
    public let constraint: [String]
    /// The constraint's values the conflicting objects had when the conflict was found.
    public let constraintValues: [String: Any]
    /// The object whose row in the store already holds the values; nil for a context-level conflict.
    public let databaseObject: NSManagedObject?
    /// That row's values; nil for a context-level conflict.
    public let databaseSnapshot: [String: Any]?
    /// The objects that violate the constraint: one for a store-level conflict, several for a context-level one.
    public let conflictingObjects: [NSManagedObject]
    /// One snapshot per conflicting object, in order: its values as last fetched or saved (empty for an object never
    /// saved).
    public let conflictingSnapshots: [[AnyHashable: Any]]

    /// A conflict over `contraint` (property names, Apple's spelling of the label): `databaseObject` and its
    /// `databaseSnapshot` hold the values already, `conflictingObjects` want them; `conflictingSnapshots` gives one
    /// dictionary per conflicting object (anything else counts as an empty one).
    public init(constraint contraint: [String], database databaseObject: NSManagedObject?, databaseSnapshot: [AnyHashable: Any]?,
                conflicting conflictingObjects: [NSManagedObject], conflictingSnapshots: [Any]) {
        constraint = contraint
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot.map { snapshot in
            Dictionary(snapshot.map { ("\($0.key.base)", $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots.map { snapshot in
            if let dictionary = snapshot as? [AnyHashable: Any] { return dictionary }
            if let dictionary = snapshot as? [String: Any] { return Dictionary(uniqueKeysWithValues: dictionary.map { (AnyHashable($0.key), $0.value) }) }
            return [:]
        }
        // The values as the first conflicting object holds them now, else as the store's row holds them.
        var values: [String: Any] = [:]
        for key in contraint {
            if let object = conflictingObjects.first {
                values[key] = object.value(forKey: key) ?? NSNull()
            } else if let value = databaseSnapshot?[key] {
                values[key] = value
            }
        }
        constraintValues = values
        super.init()
    }

    open override var description: String {
        let values = constraint.map { "\($0) = \(constraintValues[$0] ?? NSNull())" }.joined(separator: ", ")
        let site = databaseObject.map { "the store's \($0.objectID.uriRepresentation().absoluteString)" } ?? "each other"
        return "NSConstraintConflict on \(constraint) (\(values)): \(conflictingObjects.count) object(s) conflict with \(site)"
    }
}
