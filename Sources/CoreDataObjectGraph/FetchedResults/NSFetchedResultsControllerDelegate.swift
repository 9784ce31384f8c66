import Foundation

/// The kinds of change a fetched results controller reports, with Apple's raw values.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    case insert = 1
    case delete = 2
    case move = 3
    case update = 4
}

/// What a fetched results controller tells its delegate when the objects it fetched change in its context.
///
/// Every method is optional, as Apple's are: the protocol extension gives each an empty default, so a delegate
/// implements only what it uses. Change tracking starts when a controller gets a delegate.
///
/// The controller parameter is a `NSFetchedResultsController<NSManagedObject>`: Apple's
/// `NSFetchedResultsController<NSFetchRequestResult>` needs a protocol that conforms to itself, which Swift on Linux
/// has not (the same edit as `NSFetchRequest<NSFetchRequestResult>`). A controller of a subclass type
/// (`NSFetchedResultsController<Person>`) reaches its delegate through a view of itself of that type, sharing its
/// results, sections and delegate; compare controllers with `==`.
public protocol NSFetchedResultsControllerDelegate: AnyObject {
    /// Called before the first change of a change event is reported.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>)

    /// An object was inserted, deleted, moved or updated. `indexPath` is where it was before the change (nil for an
    /// insertion), `newIndexPath` where it is after it (nil for a deletion).
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)

    /// A section was inserted (`sectionIndex` in the new sections) or deleted (in the old ones). Section changes are
    /// reported before object changes.
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)

    /// Called after the last change of a change event was reported.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>)

    /// The section index title for a section name; nil from the default, which leaves the controller's own rule
    /// (the capitalized first letter) in force.
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, sectionIndexTitleForSectionName sectionName: String) -> String?

    /// The whole change event as a difference of object IDs, from the old fetched objects to the new ones (updates in
    /// place are not in it). Called only when the controller has no `sectionNameKeyPath`; when a delegate implements
    /// it, no other change method is called, as Apple documents.
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

extension NSFetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {}

    public func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any, at indexPath: IndexPath?,
                           for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {}

    public func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {}

    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {}

    public func controller(_ controller: NSFetchedResultsController<NSManagedObject>, sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.delegateImplements.remove(.sectionIndexTitle)
        return nil
    }

    public func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        // Only this default runs when the delegate has no implementation: the controller learns that here and
        // reports with the other methods (Swift cannot ask whether an optional method is implemented).
        controller.delegateImplements.remove(.difference)
    }
}

/// Which optional delegate methods the current delegate implements, learnt from the defaults above.
struct DelegateMethods: OptionSet {
    let rawValue: UInt8
    static let difference = DelegateMethods(rawValue: 1)
    static let sectionIndexTitle = DelegateMethods(rawValue: 2)
}
