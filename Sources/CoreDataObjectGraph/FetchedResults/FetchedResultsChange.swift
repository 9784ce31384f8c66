import Foundation

/// What one change event did to a controller's results, in the terms its delegate is told: section inserts and
/// deletes, object inserts, deletes, moves and updates with Apple's index paths (where an object was before the
/// event, where it is after it), and the same as a difference of object IDs.
struct ResultsChange {
    struct ObjectChange {
        let object: NSManagedObject
        let type: NSFetchedResultsChangeType
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }

    struct SectionChange {
        let info: any NSFetchedResultsSectionInfo
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    private(set) var sectionChanges: [SectionChange] = []
    /// Deletes, inserts, moves, then updates, each in index order.
    private(set) var objectChanges: [ObjectChange] = []
    private(set) var differenceSteps: [CollectionDifference<NSManagedObjectID>.Change] = []

    var isEmpty: Bool { objectChanges.isEmpty && sectionChanges.isEmpty }

    /// The change of `changed`, each of which was at `oldIndices` (nil: not in the results) in the old results with
    /// the section name in `oldNames`, and is at `newIndices` in `controller`'s results now.
    init<Result>(changed: [NSManagedObject], oldIndices: [Int?], newIndices: [Int?], oldNames: [String?], oldRuns: [SectionRun],
                 controller: NSFetchedResultsController<Result>) {
        let newRuns = controller.sectionRuns
        let keyed = controller.sectionNameKeyPath != nil
        func path(_ index: Int, _ runs: [SectionRun]) -> IndexPath {
            let section = NSFetchedResultsController<Result>.section(containing: index, in: runs)
            return IndexPath(item: index - runs[section].start, section: section)
        }
        func newName(_ index: Int) -> String { keyed ? controller.sectionNames[index] : "" }

        // Sections, by name: those gone and those new.
        if keyed {
            let oldSet = Set(oldRuns.map(\.name)), newSet = Set(newRuns.map(\.name))
            for (index, run) in oldRuns.enumerated() where !newSet.contains(run.name) {
                // Every object of a deleted section was among the changed objects.
                let objects = changed.indices.filter { oldNames[$0] == run.name }.sorted { oldIndices[$0]! < oldIndices[$1]! }
                let info = DetachedSection(name: run.name, indexTitle: controller.indexTitle(forSectionName: run.name),
                                           objects: objects.map { changed[$0] })
                sectionChanges.append(SectionChange(info: info, index: index, type: .delete))
            }
            let sections = controller.sections ?? []
            for (index, run) in newRuns.enumerated() where !oldSet.contains(run.name) && index < sections.count {
                sectionChanges.append(SectionChange(info: sections[index], index: index, type: .insert))
            }
        }

        // An object in the results before and after is an update when it kept its place among the objects that did
        // not change (the same count of them before it) and its section, and its order with the other changed
        // objects in that place; otherwise it moved.
        let removed = oldIndices.compactMap { $0 }.sorted(), inserted = newIndices.compactMap { $0 }.sorted()
        func countBelow(_ value: Int, in sorted: [Int]) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        var moved = [Bool](repeating: false, count: changed.count)
        var stayers: [Int: [Int]] = [:]
        for position in changed.indices {
            guard let old = oldIndices[position], let new = newIndices[position] else { continue }
            let oldRank = old - countBelow(old, in: removed), newRank = new - countBelow(new, in: inserted)
            if oldRank != newRank || oldNames[position] != newName(new) {
                moved[position] = true
            } else {
                stayers[oldRank, default: []].append(position)
            }
        }
        for group in stayers.values where group.count > 1 {
            let byOld = group.sorted { oldIndices[$0]! < oldIndices[$1]! }, byNew = group.sorted { newIndices[$0]! < newIndices[$1]! }
            if byOld != byNew { for position in group { moved[position] = true } }
        }

        var deletes: [ObjectChange] = [], inserts: [ObjectChange] = [], moves: [ObjectChange] = [], updates: [ObjectChange] = []
        for (position, object) in changed.enumerated() {
            switch (oldIndices[position], newIndices[position]) {
            case (let old?, nil):
                deletes.append(ObjectChange(object: object, type: .delete, indexPath: path(old, oldRuns), newIndexPath: nil))
                differenceSteps.append(.remove(offset: old, element: object.objectID, associatedWith: nil))
            case (nil, let new?):
                inserts.append(ObjectChange(object: object, type: .insert, indexPath: nil, newIndexPath: path(new, newRuns)))
                differenceSteps.append(.insert(offset: new, element: object.objectID, associatedWith: nil))
            case (let old?, let new?):
                if moved[position] {
                    moves.append(ObjectChange(object: object, type: .move, indexPath: path(old, oldRuns), newIndexPath: path(new, newRuns)))
                    differenceSteps.append(.remove(offset: old, element: object.objectID, associatedWith: new))
                    differenceSteps.append(.insert(offset: new, element: object.objectID, associatedWith: old))
                } else {
                    updates.append(ObjectChange(object: object, type: .update, indexPath: path(old, oldRuns), newIndexPath: path(new, newRuns)))
                }
            case (nil, nil):
                continue
            }
        }
        deletes.sort { $0.indexPath! < $1.indexPath! }
        inserts.sort { $0.newIndexPath! < $1.newIndexPath! }
        moves.sort { $0.newIndexPath! < $1.newIndexPath! }
        updates.sort { $0.indexPath! < $1.indexPath! }
        objectChanges = deletes + inserts + moves + updates
    }
}

/// A section that is gone, as the delegate is told of its deletion: its objects as they were.
struct DetachedSection: NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    private let members: [NSManagedObject]

    init(name: String, indexTitle: String?, objects: [NSManagedObject]) {
        self.name = name
        self.indexTitle = indexTitle
        self.members = objects
    }

    var numberOfObjects: Int { members.count }
    var objects: [Any]? { members }
}
