import Foundation
import PropertyListCoding

/// Reads the object of an `NSKeyedArchiver` archive for `NSSecureUnarchiveFromDataTransformer`: graphs of the plain
/// Foundation classes with the project's own archive reader (which throws on damaged bytes instead of trapping),
/// into Swift values; graphs holding any other class through Foundation's `NSKeyedUnarchiver`, after every class in
/// them was checked here (Foundation's unarchiver on Linux traps on a class it was not allowed).
struct KeyedArchiveValueReader {
    /// The classes the archive's objects may be (checked when `requiresSecureCoding`).
    let allowedClasses: [AnyClass]
    let requiresSecureCoding: Bool

    /// Archive classes read here, each with the Foundation class whose name an allowed list uses.
    static let plainClassNames: Set<String> = [
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet", "NSOrderedSet",
        "NSMutableOrderedSet", "NSString", "NSMutableString", "NSData", "NSMutableData", "NSDate", "NSURL", "NSUUID", "NSNull",
    ]

    private var allowedNames: Set<String> { Set(allowedClasses.map { NSStringFromClass($0) }) }

    func value(in data: Data) throws -> Any? {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch {
            throw TransformerError("the \(data.count) bytes are not a keyed archive (\(error))")
        }
        let root = try archive.topValue(forKey: "root")
        let classes = try reachableClasses(from: root, in: archive)
        if classes.allSatisfy({ $0.className.map(Self.plainClassNames.contains) ?? true }) {
            try checkAllowed(classes)
            var inProgress: Set<ArchivedObjectReference> = []
            return try decode(root, in: archive, inProgress: &inProgress, depth: 0)
        }
        return try unarchiveWithFoundation(data, classes: classes)
    }

    // MARK: Classes

    /// What an archived value is, for the allowed-class check: an object's class hierarchy, or the class a plain
    /// value stands for (`NSString`, `NSNumber`, `NSData`).
    struct ArchivedClass: Hashable {
        let className: String?
        let hierarchy: [String]
    }

    /// The classes of every value reachable from `root` (objects through their fields' references).
    private func reachableClasses(from root: ArchivedValue, in archive: KeyedArchive) throws -> [ArchivedClass] {
        var found: [ArchivedClass] = []
        var seen: Set<Int> = []
        var queue: [ArchivedValue] = [root]
        var position = 0
        while position < queue.count {
            let value = queue[position]
            position += 1
            switch value {
            case .string: found.append(ArchivedClass(className: nil, hierarchy: ["NSString"]))
            case .integer, .unsignedInteger, .real, .bool: found.append(ArchivedClass(className: nil, hierarchy: ["NSNumber"]))
            case .data: found.append(ArchivedClass(className: nil, hierarchy: ["NSData"]))
            case .date: found.append(ArchivedClass(className: nil, hierarchy: ["NSDate"]))
            case .null: break
            case .array(let elements): queue += elements
            case .dictionary(let entries): queue += entries.values
            case .object(let reference):
                guard seen.insert(reference.index).inserted else { continue }
                let object = try archive.object(reference)
                found.append(ArchivedClass(className: object.className, hierarchy: object.classHierarchy))
                for key in object.keys { if let field = try object.value(forKey: key) { queue.append(field) } }
            }
        }
        return found
    }

    private func checkAllowed(_ classes: [ArchivedClass]) throws {
        guard requiresSecureCoding else { return }
        let allowed = allowedNames
        for archived in classes where allowed.isDisjoint(with: archived.hierarchy) {
            throw TransformerError("the archive holds an \(archived.className ?? archived.hierarchy[0]), which is not among the "
                                   + "allowed classes (\(allowed.sorted().joined(separator: ", ")))")
        }
    }

    // MARK: Plain graphs

    private func decode(_ value: ArchivedValue, in archive: KeyedArchive, inProgress: inout Set<ArchivedObjectReference>,
                        depth: Int) throws -> Any? {
        guard depth <= KeyedArchive.maximumPlainValueDepth else {
            throw TransformerError("the archive's objects are nested deeper than \(KeyedArchive.maximumPlainValueDepth) levels")
        }
        func element(_ value: ArchivedValue) throws -> Any {
            try decode(value, in: archive, inProgress: &inProgress, depth: depth + 1) ?? NSNull()
        }
        switch value {
        case .null: return nil
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .unsignedInteger(let integer): return NSNumber(value: integer)
        case .real(let real): return NSNumber(value: real)
        case .bool(let flag): return NSNumber(value: flag)
        case .date(let date): return date
        case .data(let data): return data
        case .array(let elements): return try elements.map(element)
        case .dictionary(let entries): return try entries.mapValues(element)
        case .object(let reference):
            guard inProgress.insert(reference).inserted else { throw TransformerError("object \(reference) contains itself") }
            defer { inProgress.remove(reference) }
            let object = try archive.object(reference)
            if object.isKind(of: "NSArray") { return try object.elements().map(element) }
            if object.isKind(of: "NSOrderedSet") { return NSOrderedSet(array: try object.elements().map(element)) }
            if object.isKind(of: "NSSet") {
                return Set(try object.elements().map { member -> AnyHashable in
                    guard let hashable = try element(member) as? AnyHashable else {
                        throw TransformerError("\(object.className) \(reference) holds a member that is not hashable")
                    }
                    return hashable
                })
            }
            if object.isKind(of: "NSDictionary") {
                let entries = try object.dictionaryEntries().map { (key: try element($0.key), value: try element($0.value)) }
                if entries.allSatisfy({ $0.key is String }) {
                    return Dictionary(entries.map { ($0.key as! String, $0.value) }, uniquingKeysWith: { _, last in last })
                }
                return Dictionary(try entries.map { entry -> (AnyHashable, Any) in
                    guard let key = entry.key as? AnyHashable else {
                        throw TransformerError("\(object.className) \(reference) has a key that is not hashable")
                    }
                    return (key, entry.value)
                }, uniquingKeysWith: { _, last in last })
            }
            if object.isKind(of: "NSString") { return try object.stringValue() }
            if object.isKind(of: "NSData") { return try object.dataValue() }
            if object.isKind(of: "NSDate") { return try object.dateValue() }
            if object.isKind(of: "NSUUID") { return try object.uuidValue() }
            if object.isKind(of: "NSURL") { return try object.urlValue() }
            if object.isKind(of: "NSNull") { return NSNull() }
            throw TransformerError("\(object.className) \(reference) cannot be read")
        }
    }

    // MARK: Other classes

    /// Foundation's unarchiver for a graph with classes of the program: each class must exist in the process (by
    /// its archived name, or one given to `NSKeyedUnarchiver.setClass(_:forClassName:)`) and, for secure coding, be
    /// allowed and `NSSecureCoding`, so that Foundation's checks, which trap on Linux, all pass.
    private func unarchiveWithFoundation(_ data: Data, classes: [ArchivedClass]) throws -> Any? {
        var resolved: [AnyClass] = []
        for archived in classes {
            guard let name = archived.className else { continue }
            guard let found = NSKeyedUnarchiver.class(forClassName: name) ?? NSClassFromString(name) else {
                throw TransformerError("the archive holds an object of class \(name), which this program does not define "
                                       + "(or map with NSKeyedUnarchiver.setClass(_:forClassName:))")
            }
            resolved.append(found)
        }
        if requiresSecureCoding {
            let allowedPlain = allowedNames
            for (archived, found) in zip(classes.filter { $0.className != nil }, resolved) {
                let isAllowed = allowedClasses.contains { found == $0 || (found as? NSObject.Type)?.isSubclass(of: $0) == true }
                    || !allowedPlain.isDisjoint(with: archived.hierarchy)
                guard isAllowed else {
                    throw TransformerError("the archive holds an \(archived.className!), which is not among the allowed classes "
                                           + "(\(allowedPlain.sorted().joined(separator: ", ")))")
                }
                guard found is NSSecureCoding.Type else {
                    throw TransformerError("\(archived.className!) does not conform to NSSecureCoding")
                }
            }
        }
        do {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = requiresSecureCoding
            defer { unarchiver.finishDecoding() }
            let allowed = requiresSecureCoding ? allowedClasses + resolved : resolved
            guard let object = unarchiver.decodeObject(of: allowed, forKey: NSKeyedArchiveRootObjectKey) else {
                throw TransformerError(unarchiver.error.map { "\($0)" } ?? "Foundation's unarchiver read no root object")
            }
            return object
        } catch let error as TransformerError {
            throw error
        } catch {
            throw TransformerError("Foundation's unarchiver failed: \(error)")
        }
    }
}

/// Why a transformer could not transform a value.
public struct TransformerError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
