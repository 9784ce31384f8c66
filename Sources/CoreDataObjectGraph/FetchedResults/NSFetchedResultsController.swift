import CoreDataModel
import Foundation
import Predicates

/// Apple's controller for the results of a fetch request shown in sections: it fetches once, splits the objects
/// into sections by `sectionNameKeyPath`, and, while it has a delegate, follows its context's changes and reports
/// them as inserts, deletes, moves and updates by index path.
///
/// The request must have sort descriptors, the first of which orders the objects by section. Use the controller
/// on its context's queue, as Apple's.
open class NSFetchedResultsController<ResultType: NSFetchRequestResult> {
    /// The request the controller fetches with; change it and call `performFetch()` again to refetch.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// The context the objects come from and whose changes the controller follows.
    public let managedObjectContext: NSManagedObjectContext
    /// The key path whose value names each object's section; nil for one section of every object.
    public let sectionNameKeyPath: String?
    /// The name of the section cache. This controller keeps its sections in memory only, so the name is kept but
    /// no file is written (docs/DEVIATIONS.md).
    public let cacheName: String?

    // The current results, nil until the first fetch; `identities` and `sectionNames` run beside them.
    var results: [ResultType]?
    /// The identity of each result that is a managed object, for finding changed objects without casting each one.
    var identities: [ObjectIdentifier] = []
    /// Each result's section name, when there is a `sectionNameKeyPath`.
    var sectionNames: [String] = []
    /// The sections as runs of the results.
    var sectionRuns: [SectionRun] = []
    /// The section infos handed out, built on first use after each change.
    var sectionInfoCache: [any NSFetchedResultsSectionInfo]?
    /// What the last fetch resolved, for judging changed objects.
    var tracking: TrackedFetch?

    private weak var storedDelegate: (any NSFetchedResultsControllerDelegate)?
    /// The optional methods the delegate implements, learnt as it is called (see `DelegateMethods`).
    var implementedMethods: DelegateMethods = [.difference, .sectionIndexTitle]
    /// The objects-did-change observer, while there is a delegate.
    var observer: (any NSObjectProtocol)?
    /// The controller this one is a `NSFetchedResultsController<NSManagedObject>` view of, for its delegate.
    private(set) weak var viewedController: (any ViewedFetchedResultsController)?
    /// This controller as its delegate sees it (itself when its results are plain managed objects).
    private var delegateView: NSFetchedResultsController<NSManagedObject>?

    /// A controller for `fetchRequest` in `context`, with sections named by `sectionNameKeyPath` (nil for a single
    /// section). Nothing is fetched until `performFetch()`.
    public init(fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
                sectionNameKeyPath: String?, cacheName name: String?) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = name
    }

    /// A view of `controller` typed for the delegate methods; its request is a copy, refreshed before each report.
    init(viewing controller: any ViewedFetchedResultsController, request: NSFetchRequest<ResultType>) {
        self.fetchRequest = request
        self.managedObjectContext = controller.managedObjectContext
        self.sectionNameKeyPath = controller.sectionNameKeyPath
        self.cacheName = controller.cacheName
        self.viewedController = controller
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// Told when the fetched objects change. With a delegate the controller follows its context's changes; without
    /// one it keeps the results of its last fetch, as Apple's does.
    public var delegate: (any NSFetchedResultsControllerDelegate)? {
        get { viewedController.map { $0.viewedDelegate } ?? storedDelegate }
        set {
            if let viewedController {
                viewedController.viewedDelegate = newValue
                return
            }
            storedDelegate = newValue
            implementedMethods = [.difference, .sectionIndexTitle]
            sectionInfoCache = nil
            updateObservation()
        }
    }

    /// Which optional methods the delegate implements; a view answers for the controller it views.
    var delegateImplements: DelegateMethods {
        get { viewedController?.viewedImplementedMethods ?? implementedMethods }
        set {
            if let viewedController { viewedController.viewedImplementedMethods = newValue } else { implementedMethods = newValue }
        }
    }

    // MARK: Fetching

    /// Fetches the request's objects and splits them into sections. Throws when the request's sort descriptors are
    /// nil, when the fetch fails, or when the objects are not in section order (the first sort descriptor
    /// must order them as `sectionNameKeyPath` does); the previous results stay then.
    open func performFetch() throws {
        if let viewedController { return try viewedController.viewedPerformFetch() }
        // Apple refuses a request without sort descriptors (nil); an empty list is accepted, and the objects then come
        // in the store's order.
        guard let descriptors = fetchRequest.sortDescriptors else {
            throw CoreDataError(.coreData, "An instance of NSFetchedResultsController requires a fetch request with sort descriptors")
        }
        let (_, entity) = try managedObjectContext.resolve(fetchRequest)
        let fetched = try managedObjectContext.fetch(fetchRequest)
        var identities: [ObjectIdentifier] = []
        var objects: [NSManagedObject] = []
        if fetchRequest.resultType == .managedObjectResultType {
            objects.reserveCapacity(fetched.count)
            for result in fetched { if let object = result as? NSManagedObject { objects.append(object) } }
            identities = objects.map(ObjectIdentifier.init)
        }
        var names: [String] = []
        if let sectionNameKeyPath {
            guard objects.count == fetched.count else {
                throw CoreDataError(.coreData, "sections by '\(sectionNameKeyPath)' need managed object results")
            }
            names = try sectionNamesOfFetched(objects, keyPath: sectionNameKeyPath)
        }
        let runs = try Self.sectionRuns(names: names, count: fetched.count, keyed: sectionNameKeyPath != nil)
        results = fetched
        self.identities = identities
        sectionNames = names
        sectionRuns = runs
        sectionInfoCache = nil
        tracking = TrackedFetch(entity: entity, predicate: fetchRequest.predicate?.predicateNode, sortDescriptors: descriptors,
                                includesSubentities: fetchRequest.includesSubentities,
                                tracksObjects: fetchRequest.resultType == .managedObjectResultType && objects.count == fetched.count)
    }

    /// The section names of freshly fetched objects; with `fetchBatchSize` their faults are filled a batch at a
    /// time (one query each) rather than one by one.
    private func sectionNamesOfFetched(_ objects: [NSManagedObject], keyPath: String) throws -> [String] {
        if fetchRequest.fetchBatchSize > 0 {
            let batch = max(fetchRequest.fetchBatchSize, 500)
            var start = 0
            while start < objects.count {
                let end = min(start + batch, objects.count)
                try managedObjectContext.fulfillFaults(for: Array(objects[start..<end]))
                start = end
            }
        }
        var namer = SectionNamer(keyPath: keyPath)
        var names: [String] = []
        names.reserveCapacity(objects.count)
        for object in objects { names.append(namer.name(of: object)) }
        return names
    }

    // MARK: Section index (overridable, so declared here rather than in +Sections)

    /// The titles of the section index: each section's index title, in section order, each title once.
    open var sectionIndexTitles: [String] {
        if let viewedController { return viewedController.viewedSectionIndexTitles }
        var titles: [String] = []
        var seen = Set<String>()
        for case let title? in (sections ?? []).map(\.indexTitle) where seen.insert(title).inserted { titles.append(title) }
        return titles
    }

    /// The section a section index title stands for: the first section with that index title; when none has it,
    /// `sectionIndex` itself, kept within the sections.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        if let viewedController { return viewedController.viewedSection(forSectionIndexTitle: title, at: sectionIndex) }
        let sections = self.sections ?? []
        if let index = sections.firstIndex(where: { $0.indexTitle == title }) { return index }
        return max(0, min(sectionIndex, sections.count - 1))
    }

    /// The index title for a section name: its first letter, capitalized (nil for an empty name). Override it for
    /// another rule; a delegate's `controller(_:sectionIndexTitleForSectionName:)` takes precedence.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if let viewedController { return viewedController.viewedSectionIndexTitle(forSectionName: sectionName) }
        guard let first = sectionName.first else { return nil }
        return String(first).capitalized
    }

    // MARK: Results

    /// The fetched objects in order, all sections together; nil before the first `performFetch()`.
    public var fetchedObjects: [ResultType]? {
        if let viewedController { return viewedController.viewedFetchedObjects.map { $0.map { $0 as! ResultType } } }
        return results
    }

    /// The object at `indexPath` (section, then row); traps when there is none, as Apple's raises.
    public func object(at indexPath: IndexPath) -> ResultType {
        if let viewedController { return viewedController.viewedObject(at: indexPath) as! ResultType }
        guard let results, indexPath.count == 2 else {
            preconditionFailure("NSFetchedResultsController: no object at index path \(indexPath)")
        }
        let section = indexPath[0], row = indexPath[1]
        guard sectionRuns.indices.contains(section), row >= 0, row < sectionRuns[section].count else {
            preconditionFailure("NSFetchedResultsController: no object at index \(row) in section at index \(section)")
        }
        return results[sectionRuns[section].start + row]
    }

    /// The index path of `object` in the results; nil when it is not among them.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        if let viewedController { return (object as? NSManagedObject).flatMap { viewedController.viewedIndexPath(forObject: $0) } }
        guard let results else { return nil }
        let index: Int?
        if let managed = object as? NSManagedObject, identities.count == results.count {
            index = identities.firstIndex(of: ObjectIdentifier(managed))
        } else if let hashable = object as? AnyHashable {
            index = results.firstIndex { ($0 as? AnyHashable) == hashable }
        } else {
            index = nil
        }
        return index.map(indexPath(ofResultAt:))
    }

    /// The index path of the result at `index` of the flat results.
    func indexPath(ofResultAt index: Int) -> IndexPath {
        let section = Self.section(containing: index, in: sectionRuns)
        return IndexPath(item: index - sectionRuns[section].start, section: section)
    }

    /// Deletes the section cache called `name`, or every cache for nil. The controller keeps no cache file, so there
    /// is nothing to delete (docs/DEVIATIONS.md).
    open class func deleteCache(withName name: String?) {}

    /// Whether two controllers are one: the same controller, or a controller and the view of it its delegate gets.
    public static func == <Other>(lhs: NSFetchedResultsController, rhs: NSFetchedResultsController<Other>) -> Bool {
        lhs.underlyingController === rhs.underlyingController
    }

    public static func != <Other>(lhs: NSFetchedResultsController, rhs: NSFetchedResultsController<Other>) -> Bool {
        !(lhs == rhs)
    }

    /// The controller itself, or the one this view shows.
    var underlyingController: AnyObject { viewedController ?? self }

    /// This controller as its delegate methods receive it.
    var viewForDelegate: NSFetchedResultsController<NSManagedObject> {
        if let plain = self as? NSFetchedResultsController<NSManagedObject> { return plain }
        let view = delegateView ?? NSFetchedResultsController<NSManagedObject>(viewing: self, request: NSFetchRequest<NSManagedObject>())
        delegateView = view
        let request = view.fetchRequest
        request.entityName = fetchRequest.entityName
        request.entity = fetchRequest.entity
        request.predicate = fetchRequest.predicate
        request.sortDescriptors = fetchRequest.sortDescriptors
        request.fetchLimit = fetchRequest.fetchLimit
        request.fetchOffset = fetchRequest.fetchOffset
        request.fetchBatchSize = fetchRequest.fetchBatchSize
        request.includesSubentities = fetchRequest.includesSubentities
        request.includesPendingChanges = fetchRequest.includesPendingChanges
        request.relationshipKeyPathsForPrefetching = fetchRequest.relationshipKeyPathsForPrefetching
        request.affectedStores = fetchRequest.affectedStores
        request.shouldRefreshRefetchedObjects = fetchRequest.shouldRefreshRefetchedObjects
        return view
    }
}

/// What a `NSFetchedResultsController<NSManagedObject>` view needs of the controller it shows.
protocol ViewedFetchedResultsController: AnyObject {
    var managedObjectContext: NSManagedObjectContext { get }
    var sectionNameKeyPath: String? { get }
    var cacheName: String? { get }
    var viewedDelegate: (any NSFetchedResultsControllerDelegate)? { get set }
    var viewedImplementedMethods: DelegateMethods { get set }
    var viewedFetchedObjects: [NSManagedObject]? { get }
    var viewedSections: [any NSFetchedResultsSectionInfo]? { get }
    var viewedSectionIndexTitles: [String] { get }
    func viewedPerformFetch() throws
    func viewedObject(at indexPath: IndexPath) -> NSManagedObject
    func viewedIndexPath(forObject object: NSManagedObject) -> IndexPath?
    func viewedSection(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int
    func viewedSectionIndexTitle(forSectionName sectionName: String) -> String?
}

extension NSFetchedResultsController: ViewedFetchedResultsController {
    var viewedDelegate: (any NSFetchedResultsControllerDelegate)? {
        get { delegate }
        set { delegate = newValue }
    }
    var viewedImplementedMethods: DelegateMethods {
        get { implementedMethods }
        set { implementedMethods = newValue }
    }
    var viewedFetchedObjects: [NSManagedObject]? { fetchedObjects?.compactMap { $0 as? NSManagedObject } }
    var viewedSections: [any NSFetchedResultsSectionInfo]? { sections }
    var viewedSectionIndexTitles: [String] { sectionIndexTitles }
    func viewedPerformFetch() throws { try performFetch() }
    func viewedObject(at indexPath: IndexPath) -> NSManagedObject {
        guard let object = object(at: indexPath) as? NSManagedObject else {
            preconditionFailure("NSFetchedResultsController: the result at \(indexPath) is not a managed object")
        }
        return object
    }
    func viewedIndexPath(forObject object: NSManagedObject) -> IndexPath? {
        (object as? ResultType).flatMap { indexPath(forObject: $0) }
    }
    func viewedSection(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        section(forSectionIndexTitle: title, at: sectionIndex)
    }
    func viewedSectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionIndexTitle(forSectionName: sectionName)
    }
}

/// What a fetch resolved, kept to judge changed objects against it.
struct TrackedFetch {
    var entity: NSEntityDescription
    var predicate: PredicateNode?
    var sortDescriptors: [Predicates.NSSortDescriptor]
    var includesSubentities: Bool
    /// Whether the results are managed objects (a dictionary or ID fetch is not followed).
    var tracksObjects: Bool
}
