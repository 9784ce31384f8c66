import Foundation

/// A section of a fetched results controller: its name, index title and objects.
public protocol NSFetchedResultsSectionInfo {
    /// The section's name: the value of the controller's `sectionNameKeyPath` shared by its objects, as a string.
    var name: String { get }
    /// The section's title in a section index.
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in the controller's order.
    var objects: [Any]? { get }
}

/// One section of a controller's current results: a run of its fetched objects. The objects are read from the
/// controller when asked, so a section costs nothing per object.
final class FetchedResultsSection<ResultType: NSFetchRequestResult>: NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    let numberOfObjects: Int
    /// Where the section starts in the controller's fetched objects.
    let offset: Int
    private weak var controller: NSFetchedResultsController<ResultType>?

    init(name: String, indexTitle: String?, offset: Int, count: Int, controller: NSFetchedResultsController<ResultType>) {
        self.name = name
        self.indexTitle = indexTitle
        self.offset = offset
        self.numberOfObjects = count
        self.controller = controller
    }

    var objects: [Any]? {
        guard let results = controller?.results else { return nil }
        let end = min(offset + numberOfObjects, results.count)
        guard offset < end else { return [] }
        return results[offset..<end].map { $0 as Any }
    }
}
