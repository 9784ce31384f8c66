import Foundation
import PropertyListCoding

/// Transformable values in the binary store: Apple archives the value object itself inside the map archive (an
/// `NSColor`, an `NSDictionary`), where the SQLite store keeps the transformed bytes, a keyed archive of that object
/// (the default transformer). These two functions move an object graph between the two forms: out of the map
/// archive into an archive of its own (`$top` key `root`), and back.
enum BinaryStoreArchivedObjects {
    /// The objects reachable from `root` in `archive`, as a keyed archive of their own, in breadth-first order with
    /// fields visited by sorted key, so the same graph always gives the same bytes.
    static func standaloneArchive(of root: ArchivedObjectReference, in archive: KeyedArchive) throws -> Data {
        var newIndex: [Int: Int] = [0: 0]
        var order: [Int] = [0]
        var queue: [Int] = []
        func number(_ old: UInt64) throws -> Int {
            guard old < UInt64(archive.objects.count) else {
                throw PropertyListError(reason: "UID \(old) is outside $objects (\(archive.objects.count) entries)")
            }
            let index = Int(old)
            if let known = newIndex[index] { return known }
            newIndex[index] = order.count
            order.append(index)
            queue.append(index)
            return order.count - 1
        }
        let rootIndex = try number(UInt64(root.index))
        var copied: [PropertyListValue] = []
        var position = 0
        while position < queue.count {
            let index = queue[position]
            position += 1
            copied.append(try remap(archive.objects[index], using: number))
        }
        let objects = [PropertyListValue.string("$null")] + copied
        return BinaryPropertyListWriter().write(.dictionary([
            "$archiver": "NSKeyedArchiver", "$version": .integer(KeyedArchiveBuilder.archiveVersion),
            "$top": .dictionary(["root": .uid(UInt64(rootIndex))]), "$objects": .array(objects),
        ]))
    }

    /// `value` with each UID renumbered (dictionary fields in sorted key order, so numbering is deterministic).
    private static func remap(_ value: PropertyListValue, using number: (UInt64) throws -> Int) throws -> PropertyListValue {
        switch value {
        case .uid(let uid): return .uid(UInt64(try number(uid)))
        case .array(let elements): return .array(try elements.map { try remap($0, using: number) })
        case .dictionary(let entries):
            var result: [String: PropertyListValue] = [:]
            for key in entries.keys.sorted() { result[key] = try remap(entries[key]!, using: number) }
            return .dictionary(result)
        default: return value
        }
    }

    /// When `bytes` are a keyed archive with a `root` object (what the default transformer makes), that object's
    /// graph added to `builder`; nil for any other bytes (they are stored as `NSData`).
    static func embed(_ bytes: Data, into builder: inout KeyedArchiveBuilder) -> ArchivedObjectReference? {
        guard BinaryPropertyListReader.hasSignature(bytes), let archive = try? KeyedArchive(data: bytes),
              case .uid(let rootUID)? = archive.top["root"], archive.top.count == 1,
              let root = Int(exactly: rootUID), archive.objects.indices.contains(root),
              case .dictionary(let rootEntry) = archive.objects[root], rootEntry["$class"] != nil else { return nil }
        var staged = builder
        var references: [Int: ArchivedObjectReference] = [0: KeyedArchiveBuilder.nullReference]
        var pending: [(Int, ArchivedObject)] = []
        // First give every reachable entry its place (objects reserved, plain values added), then define objects.
        var queue = [root]
        var position = 0
        while position < queue.count {
            let index = queue[position]
            position += 1
            guard references[index] == nil else { continue }
            guard archive.objects.indices.contains(index) else { return nil }
            switch archive.objects[index] {
            case .dictionary(let entry) where entry["$class"] != nil:
                guard let object = try? archive.object(ArchivedObjectReference(index: index)) else { return nil }
                references[index] = staged.reserveObject()
                pending.append((index, object))
                for key in object.keys.sorted() { queue += uids(in: object.fields[key]!) }
            case .string, .integer, .unsignedInteger, .real, .bool, .data:
                guard let reference = try? staged.addPlainValue(archive.objects[index]) else { return nil }
                references[index] = reference
            default:
                return nil
            }
            guard queue.count <= archive.objects.count * 4 else { return nil }
        }
        for (index, object) in pending {
            var fields: [String: PropertyListValue] = [:]
            for (key, value) in object.fields {
                guard let mapped = renumber(value, references) else { return nil }
                fields[key] = mapped
            }
            guard (try? staged.defineObject(references[index]!, className: object.className,
                                            classHierarchy: object.classHierarchy, fields: fields)) != nil else { return nil }
        }
        builder = staged
        return references[root]
    }

    private static func uids(in value: PropertyListValue) -> [Int] {
        switch value {
        case .uid(let uid): return Int(exactly: uid).map { [$0] } ?? []
        case .array(let elements): return elements.flatMap(uids)
        case .dictionary(let entries): return entries.keys.sorted().flatMap { uids(in: entries[$0]!) }
        default: return []
        }
    }

    private static func renumber(_ value: PropertyListValue, _ references: [Int: ArchivedObjectReference]) -> PropertyListValue? {
        switch value {
        case .uid(let uid):
            guard let index = Int(exactly: uid), let reference = references[index] else { return nil }
            return reference.uid
        case .array(let elements):
            var result: [PropertyListValue] = []
            for element in elements {
                guard let mapped = renumber(element, references) else { return nil }
                result.append(mapped)
            }
            return .array(result)
        case .dictionary(let entries):
            var result: [String: PropertyListValue] = [:]
            for (key, element) in entries {
                guard let mapped = renumber(element, references) else { return nil }
                result[key] = mapped
            }
            return .dictionary(result)
        default: return value
        }
    }
}
