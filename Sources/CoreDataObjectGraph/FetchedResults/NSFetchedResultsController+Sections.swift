import Foundation
import KeyValueCoding

/// One section as a run of the flat results.
struct SectionRun: Equatable {
    var name: String
    var start: Int
    var count: Int
}

extension NSFetchedResultsController {
    /// The sections, in order; nil before the first `performFetch()`. Without a `sectionNameKeyPath` there is one
    /// section, named "", even when nothing matched.
    public var sections: [any NSFetchedResultsSectionInfo]? {
        if let viewedController { return viewedController.viewedSections }
        guard results != nil else { return nil }
        if let sectionInfoCache { return sectionInfoCache }
        let infos: [any NSFetchedResultsSectionInfo] = sectionRuns.map { run in
            FetchedResultsSection(name: run.name, indexTitle: sectionNameKeyPath == nil ? nil : indexTitle(forSectionName: run.name),
                                  offset: run.start, count: run.count, controller: self)
        }
        sectionInfoCache = infos
        return infos
    }

    /// A section's index title: the delegate's, when it implements the method, else `sectionIndexTitle(forSectionName:)`.
    func indexTitle(forSectionName name: String) -> String? {
        if delegateImplements.contains(.sectionIndexTitle), let delegate {
            let title = delegate.controller(viewForDelegate, sectionIndexTitleForSectionName: name)
            if delegateImplements.contains(.sectionIndexTitle) { return title }
        }
        return sectionIndexTitle(forSectionName: name)
    }

    /// The section name of `object`: the value at `keyPath` as a string ("" for nil), as Apple's names sections.
    static func sectionName(of object: NSManagedObject, keyPath: String) -> String {
        let value = keyPath.contains(".") ? object.value(forKeyPath: keyPath) : object.value(forKey: keyPath)
        switch value {
        case nil, is NSNull: return ""
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        case let value?: return String(describing: value)
        }
    }

    /// The sections of results named `names` (one section of `count` results when not `keyed`). Throws when a name
    /// comes back after another section began: the objects are not in section order.
    static func sectionRuns(names: [String], count: Int, keyed: Bool) throws -> [SectionRun] {
        guard keyed else { return [SectionRun(name: "", start: 0, count: count)] }
        var runs: [SectionRun] = []
        var seen = Set<String>()
        for (index, name) in names.enumerated() {
            if let last = runs.last, last.name == name {
                runs[runs.count - 1].count += 1
                continue
            }
            guard seen.insert(name).inserted else {
                throw CoreDataError(.coreData, "The fetched object at index \(index) has an out of order section name '\(name)'. "
                                    + "Objects must be sorted by section name")
            }
            runs.append(SectionRun(name: name, start: index, count: 1))
        }
        return runs
    }

    /// The index of the run holding the result at `index` (binary search over the runs' starts).
    static func section(containing index: Int, in runs: [SectionRun]) -> Int {
        var low = 0, high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if runs[middle].start <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
