import CoreDataModel
import Foundation
import Predicates

/// Apple's change tracking: while it has a delegate, the controller observes its context's objects-did-change
/// notifications (posted by `processPendingChanges()`, so after a save, a child's save, a merge and automatic
/// merging too), judges the inserted, updated, refreshed, deleted and invalidated objects of its entity against its
/// predicate and order, updates its results in place, and reports the difference between will- and
/// did-change-content.
extension NSFetchedResultsController: ContextChangeReceiver {
    /// Observes the context while there is a delegate, and only then (Apple's "no tracking" mode without one).
    func updateObservation() {
        guard delegate != nil else {
            if let observer { NotificationCenter.default.removeObserver(observer) }
            observer = nil
            return
        }
        guard observer == nil else { return }
        let relay = ContextChangeRelay(target: self)
        observer = NotificationCenter.default.addObserver(
            forName: NSManagedObjectContext.objectsDidChangeNotification, object: managedObjectContext, queue: nil
        ) { notification in
            relay.target?.contextObjectsDidChange(notification)
        }
    }

    func contextObjectsDidChange(_ notification: Notification) {
        guard let delegate, results != nil, let tracking, tracking.tracksObjects else { return }
        let info = notification.userInfo ?? [:]
        var changed: [NSManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        var deleted = Set<ObjectIdentifier>()
        for (key, deletes) in [(NSInsertedObjectsKey, false), (NSUpdatedObjectsKey, false), (NSRefreshedObjectsKey, false),
                               (NSDeletedObjectsKey, true), (NSInvalidatedObjectsKey, true)] {
            guard let objects = info[key] as? Set<NSManagedObject> else { continue }
            for object in objects where tracking.covers(object.entity) {
                let identity = ObjectIdentifier(object)
                if deletes { deleted.insert(identity) }
                if seen.insert(identity).inserted { changed.append(object) }
            }
        }
        guard !changed.isEmpty else { return }
        let change = applyChanges(of: changed, deleted: deleted, tracking: tracking)
        guard !change.isEmpty else { return }
        report(change, to: delegate)
    }

    /// Tells the delegate: the difference alone when it takes one (and there are no sections), else the section
    /// changes, then the object changes, between will- and did-change-content.
    private func report(_ change: ResultsChange, to delegate: any NSFetchedResultsControllerDelegate) {
        let view = viewForDelegate
        if sectionNameKeyPath == nil, delegateImplements.contains(.difference) {
            if let difference = CollectionDifference(change.differenceSteps) {
                delegate.controller(view, didChangeContentWith: difference)
                if delegateImplements.contains(.difference) { return }
            }
        }
        delegate.controllerWillChangeContent(view)
        for section in change.sectionChanges {
            delegate.controller(view, didChange: section.info, atSectionIndex: section.index, for: section.type)
        }
        for object in change.objectChanges {
            delegate.controller(view, didChange: object.object, at: object.indexPath, for: object.type, newIndexPath: object.newIndexPath)
        }
        delegate.controllerDidChangeContent(view)
    }

    /// Takes the changed objects out of the results and puts back those that match now, at their place in the
    /// request's order, and works out what that changed.
    func applyChanges(of changed: [NSManagedObject], deleted: Set<ObjectIdentifier>, tracking: TrackedFetch) -> ResultsChange {
        let keyed = sectionNameKeyPath != nil
        let oldRuns = sectionRuns
        // Where each changed object was, and whether it belongs now.
        let oldIndices = flatIndices(of: changed.map(ObjectIdentifier.init))
        var members: [Bool] = []
        members.reserveCapacity(changed.count)
        for object in changed {
            let belongs = !deleted.contains(ObjectIdentifier(object)) && !object.isDeleted
                && object.managedObjectContext === managedObjectContext && tracking.matches(object)
            members.append(belongs)
        }
        var oldNames: [String?] = Array(repeating: nil, count: changed.count)
        for (position, index) in oldIndices.enumerated() {
            guard let index else { continue }
            oldNames[position] = keyed ? sectionNames[index] : ""
        }
        // Out: every changed object that was in the results.
        let removed = oldIndices.compactMap { $0 }.sorted()
        removeResults(at: removed)
        // In: the changed objects that belong, in order.
        var incoming: [(position: Int, name: String)] = []
        var namer = SectionNamer(keyPath: sectionNameKeyPath ?? "")
        for (position, object) in changed.enumerated() where members[position] {
            incoming.append((position, keyed ? namer.name(of: object) : ""))
        }
        incoming.sort { tracking.ascending(changed[$0.position], changed[$1.position]) }
        var newIndices: [Int?] = Array(repeating: nil, count: changed.count)
        for (position, index) in zip(incoming.map(\.position), insertResults(incoming.map { (changed[$0.position], $0.name) },
                                                                               tracking: tracking)) {
            newIndices[position] = index
        }
        sectionRuns = (try? Self.sectionRuns(names: sectionNames, count: results?.count ?? 0, keyed: keyed))
            ?? Self.unorderedSectionRuns(names: sectionNames)
        sectionInfoCache = nil
        return ResultsChange(changed: changed, oldIndices: oldIndices, newIndices: newIndices, oldNames: oldNames,
                             oldRuns: oldRuns, controller: self)
    }

    /// The index in the results of each identity, nil for those not in them.
    private func flatIndices(of wanted: [ObjectIdentifier]) -> [Int?] {
        // A few objects: one vectorisable scan each. Many: one pass with a table.
        if wanted.count <= 8 { return wanted.map { identities.firstIndex(of: $0) } }
        var position: [ObjectIdentifier: Int] = [:]
        position.reserveCapacity(wanted.count)
        for (index, identity) in wanted.enumerated() { position[identity] = index }
        var found: [Int?] = Array(repeating: nil, count: wanted.count)
        for (index, identity) in identities.enumerated() {
            if let slot = position[identity] { found[slot] = index }
        }
        return found
    }

    /// Removes the results at `indices` (ascending), with their identities and section names.
    private func removeResults(at indices: [Int]) {
        guard !indices.isEmpty, var objects = results.take() else { return }
        defer { results = objects }
        let keyed = sectionNameKeyPath != nil
        if indices.count <= 32 {
            // Each removal moves the tail without retaining anything; few removals beat rebuilding.
            for index in indices.reversed() {
                objects.remove(at: index)
                identities.remove(at: index)
                if keyed { sectionNames.remove(at: index) }
            }
            return
        }
        var drop = [Bool](repeating: false, count: objects.count)
        for index in indices { drop[index] = true }
        objects = objects.enumerated().filter { !drop[$0.offset] }.map(\.element)
        identities = identities.enumerated().filter { !drop[$0.offset] }.map(\.element)
        if keyed { sectionNames = sectionNames.enumerated().filter { !drop[$0.offset] }.map(\.element) }
    }

    /// Inserts `incoming` (sorted) at their places in the results; returns where each went (nil for an object that is
    /// not of the controller's result type).
    private func insertResults(_ incoming: [(object: NSManagedObject, name: String)], tracking: TrackedFetch) -> [Int?] {
        guard !incoming.isEmpty, var objects = results.take() else { return [] }
        defer { results = objects }
        let keyed = sectionNameKeyPath != nil
        // The first result after `object`, searched from `low` (the results are in order; each read is one cast).
        func place(_ object: NSManagedObject, from low: Int) -> Int {
            var low = low, high = objects.count
            while low < high {
                let middle = (low + high) / 2
                if let other = objects[middle] as? NSManagedObject, tracking.ascending(object, other) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        var indices: [Int?] = []
        indices.reserveCapacity(incoming.count)
        if incoming.count <= 32 {
            var low = 0
            for (object, name) in incoming {
                let index = place(object, from: low)
                guard let typed = object as? ResultType else {
                    indices.append(nil)
                    continue
                }
                objects.insert(typed, at: index)
                identities.insert(ObjectIdentifier(object), at: index)
                if keyed { sectionNames.insert(name, at: index) }
                indices.append(index)
                low = index + 1
            }
            return indices
        }
        // Many: one merge into new arrays.
        var mergedObjects: [ResultType] = [], mergedIdentities: [ObjectIdentifier] = [], mergedNames: [String] = []
        mergedObjects.reserveCapacity(objects.count + incoming.count)
        mergedIdentities.reserveCapacity(objects.count + incoming.count)
        var next = 0
        for (object, name) in incoming {
            guard let typed = object as? ResultType else {
                indices.append(nil)
                continue
            }
            let index = place(object, from: next)
            mergedObjects.append(contentsOf: objects[next..<index])
            mergedIdentities.append(contentsOf: identities[next..<index])
            if keyed { mergedNames.append(contentsOf: sectionNames[next..<index]) }
            indices.append(mergedObjects.count)
            mergedObjects.append(typed)
            mergedIdentities.append(ObjectIdentifier(object))
            if keyed { mergedNames.append(name) }
            next = index
        }
        mergedObjects.append(contentsOf: objects[next...])
        mergedIdentities.append(contentsOf: identities[next...])
        if keyed { mergedNames.append(contentsOf: sectionNames[next...]) }
        objects = mergedObjects
        identities = mergedIdentities
        if keyed { sectionNames = mergedNames }
        return indices
    }

    /// Sections for names out of section order (a change broke the order the first sort descriptor promised): each
    /// run is a section, as the objects lie.
    static func unorderedSectionRuns(names: [String]) -> [SectionRun] {
        var runs: [SectionRun] = []
        for (index, name) in names.enumerated() {
            if let last = runs.last, last.name == name { runs[runs.count - 1].count += 1 } else { runs.append(SectionRun(name: name, start: index, count: 1)) }
        }
        return runs
    }
}

/// Reached by the notification observer, which holds the controller weakly.
protocol ContextChangeReceiver: AnyObject {
    func contextObjectsDidChange(_ notification: Notification)
}

/// The observer's hold on its controller: weak, and sendable so the observer block may keep it (notifications are
/// delivered on the posting context's queue, where the controller is used).
final class ContextChangeRelay: @unchecked Sendable {
    weak var target: (any ContextChangeReceiver)?
    init(target: any ContextChangeReceiver) { self.target = target }
}

extension TrackedFetch {
    /// Whether objects of `entity` can be among the results.
    func covers(_ candidate: NSEntityDescription) -> Bool {
        includesSubentities ? candidate.isKind(of: entity) : candidate === entity
    }

    /// Whether `object`, with its current values, matches the predicate.
    func matches(_ object: NSManagedObject) -> Bool {
        guard let predicate else { return true }
        return (try? PredicateEvaluator(evaluatedObject: object).evaluate(predicate)) ?? false
    }

    /// The fetch's order: the sort descriptors, then the primary key, objects not saved yet last (the store's order
    /// with pending changes).
    func ascending(_ lhs: NSManagedObject, _ rhs: NSManagedObject) -> Bool {
        for descriptor in sortDescriptors {
            let order = descriptor.compare(lhs, to: rhs)
            if order != .orderedSame { return order == .orderedAscending }
        }
        let left = lhs.objectID.isTemporaryID ? Int64.max : lhs.objectID.primaryKey
        let right = rhs.objectID.isTemporaryID ? Int64.max : rhs.objectID.primaryKey
        return left < right
    }
}
