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

    /// The sections of results named `names` (one section of `count` results when not `keyed`). Throws when a name
    /// comes back after another section began: the objects are not in section order.
    static func sectionRuns(names: [String], count: Int, keyed: Bool) throws -> [SectionRun] {
        guard keyed else { return [SectionRun(name: "", start: 0, count: count)] }
        var runs: [SectionRun] = []
        var seen = Set<String>()
        var start = 0
        // Names are compared in place with the run's first (no copy of a run or a name per object).
        for index in names.indices.dropFirst() where names[index] != names[start] {
            guard seen.insert(names[start]).inserted else { throw outOfOrder(names[start], at: start) }
            runs.append(SectionRun(name: names[start], start: start, count: index - start))
            start = index
        }
        if !names.isEmpty {
            guard seen.insert(names[start]).inserted else { throw outOfOrder(names[start], at: start) }
            runs.append(SectionRun(name: names[start], start: start, count: names.count - start))
        }
        return runs
    }

    private static func outOfOrder(_ name: String, at index: Int) -> CoreDataError {
        CoreDataError(.coreData, "The fetched object at index \(index) has an out of order section name '\(name)'. "
                      + "Objects must be sorted by section name")
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

/// Names objects' sections: the value at the key path as text ("" for nil), as Apple names sections. For a plain key
/// the stored value is compared with the previous object's first, and the previous name reused when they are equal:
/// results come sorted by section, so each run of a section costs one conversion.
struct SectionNamer {
    let keyPath: String
    private let isPlainKey: Bool
    private var last: (value: StoredValue, name: String)?

    init(keyPath: String) {
        self.keyPath = keyPath
        isPlainKey = !keyPath.contains(".")
    }

    mutating func name(of object: NSManagedObject) -> String {
        guard isPlainKey, let slot = object.slots.index(of: keyPath), let value = object.storedValue(at: slot) else {
            return Self.text(of: object.value(forKeyPath: keyPath))
        }
        if let last, last.value == value { return last.name }
        let name = Self.text(of: object.value(forKey: keyPath))
        last = (value, name)
        return name
    }

    static func text(of value: Any?) -> String {
        switch value {
        case nil, is NSNull: return ""
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        case let value?: return String(describing: value)
        }
    }
}
