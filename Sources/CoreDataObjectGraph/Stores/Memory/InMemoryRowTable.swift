import CoreDataModel
import Foundation
import KeyValueCoding

/// The rows of a store held in memory: the registered cache nodes of an ``NSAtomicStore`` (``NSInMemoryStore`` is
/// one), by object ID and by entity, with the reference objects their primary keys stand for. Its extensions are the
/// in-memory fetch engine: predicates evaluated on the nodes by the predicate module's evaluator, sort descriptors,
/// windows, counts and dictionary results. Every store that keeps its objects in memory answers ``RowStore`` here.
///
/// Used under the coordinator's lock only, like every store.
final class InMemoryRowTable {
    /// The registered nodes by object ID.
    private(set) var nodesByID: [NSManagedObjectID: NSAtomicStoreCacheNode] = [:]
    /// The registered nodes of each concrete entity, in primary-key order once `ordered(_:)` has sorted them.
    private var nodesByEntity: [ObjectIdentifier: EntityNodes] = [:]
    /// Primary keys by reference object, per root entity (keys are unique within an inheritance tree, as in SQLite).
    private var keysByReference: [ObjectIdentifier: [AnyHashable: Int64]] = [:]
    /// Reference objects by primary key, per root entity (numbers given as `Int64` are in `numbersByKey`).
    private var referencesByKey: [ObjectIdentifier: [Int64: Any]] = [:]
    /// Primary keys by integer reference, per root entity: integers of every type, as `AnyHashable` equates them, kept
    /// unboxed (the XML and binary stores number every object).
    private var keysByNumber: [ObjectIdentifier: [Int64: Int64]] = [:]
    /// `Int64` reference objects by primary key, per root entity.
    private var numbersByKey: [ObjectIdentifier: [Int64: Int64]] = [:]
    /// The largest primary key given out (one sequence for the store).
    private(set) var lastKey: Int64 = 0
    /// Changes whenever a node is added, removed or changed, so cached orders are dropped.
    private(set) var generation = 0
    /// The last ordered fetch of a batched fetch's windows, reused by the next window while nothing changes.
    var cachedOrder: (key: OrderKey, nodes: [NSAtomicStoreCacheNode], boundaries: [[Any]])?

    private struct EntityNodes {
        var nodes: [NSAtomicStoreCacheNode] = []
        var sorted = true
    }

    var count: Int { nodesByID.count }

    // MARK: Reference objects

    /// The primary key standing for `reference` in `entity`'s inheritance tree, given out on first use. A reference
    /// object must be hashable (a string, a number, a UUID, …); a class instance that is not stands for itself.
    func primaryKey(for reference: Any, entity: NSEntityDescription) -> Int64 {
        if type(of: reference) == Int64.self, let number = reference as? Int64 { return primaryKey(forNumber: number, root: entity.rootEntity) }
        let root = ObjectIdentifier(entity.rootEntity)
        if let number = Self.integer(reference) {
            if let key = keysByNumber[root]?[number] { return key }
            lastKey += 1
            keysByNumber[root, default: [:]][number] = lastKey
            referencesByKey[root, default: [:]][lastKey] = reference
            return lastKey
        }
        let hashable = Self.hashable(reference)
        if let key = keysByReference[root]?[hashable] { return key }
        lastKey += 1
        keysByReference[root, default: [:]][hashable] = lastKey
        referencesByKey[root, default: [:]][lastKey] = reference
        return lastKey
    }

    /// Room for `count` more nodes, `perRoot` of them numbered in each inheritance tree: a load registers every node
    /// at once, and growing the tables step by step would rehash them over and over. Roots are given by `ObjectIdentifier`.
    func reserveCapacity(nodes count: Int, numberedPerRoot perRoot: [ObjectIdentifier: Int]) {
        nodesByID.reserveCapacity(nodesByID.count + count)
        for (key, count) in perRoot {
            keysByNumber[key, default: [:]].reserveCapacity((keysByNumber[key]?.count ?? 0) + count)
            numbersByKey[key, default: [:]].reserveCapacity((numbersByKey[key]?.count ?? 0) + count)
        }
    }

    /// `primaryKey(for:entity:)` for an `Int64` reference in the tree of `root` (the entity's root, found by the caller).
    func primaryKey(forNumber number: Int64, root entity: NSEntityDescription) -> Int64 {
        let root = ObjectIdentifier(entity)
        if let key = keysByNumber[root]?[number] { return key }
        lastKey += 1
        keysByNumber[root, default: [:]][number] = lastKey
        numbersByKey[root, default: [:]][lastKey] = number
        return lastKey
    }

    /// The reference object the primary key of `id` stands for, or nil for an ID this table never gave out.
    func referenceObject(for id: NSManagedObjectID) -> Any? {
        let root = ObjectIdentifier(id.entity.rootEntity)
        if let number = numbersByKey[root]?[id.primaryKey] { return number }
        return referencesByKey[root]?[id.primaryKey]
    }

    /// An integer reference of another type than `Int64`, as the number `AnyHashable` would equate it with. Matched
    /// by its exact type: a conditional cast of a string bridged by `JSONSerialization` to a number type traps on Linux.
    private static func integer(_ reference: Any) -> Int64? {
        let type = type(of: reference)
        if type == Int.self { return Int64(reference as! Int) }
        if type == Int32.self { return Int64(reference as! Int32) }
        if type == Int16.self { return Int64(reference as! Int16) }
        if type == Int8.self { return Int64(reference as! Int8) }
        if type == UInt.self { return Int64(exactly: reference as! UInt) }
        if type == UInt64.self { return Int64(exactly: reference as! UInt64) }
        if type == UInt32.self { return Int64(reference as! UInt32) }
        if type == UInt16.self { return Int64(reference as! UInt16) }
        if type == UInt8.self { return Int64(reference as! UInt8) }
        return nil
    }

    private static func hashable(_ reference: Any) -> AnyHashable {
        if let hashable = reference as? AnyHashable { return hashable }
        if type(of: reference) is AnyClass { return AnyHashable(ObjectIdentifier(reference as AnyObject)) }
        return AnyHashable(String(reflecting: reference))
    }

    // MARK: Nodes

    func node(for id: NSManagedObjectID) -> NSAtomicStoreCacheNode? { nodesByID[id] }

    /// Registers `node`; false when a node with its object ID is registered already.
    @discardableResult
    func add(_ node: NSAtomicStoreCacheNode) -> Bool {
        guard nodesByID[node.objectID] == nil else { return false }
        nodesByID[node.objectID] = node
        // Changed in place: a copy of the entity's list out of the dictionary and back would copy it on every add.
        let entity = ObjectIdentifier(node.objectID.entity)
        if let last = nodesByEntity[entity]?.nodes.last, last.objectID.primaryKey > node.objectID.primaryKey {
            nodesByEntity[entity]!.sorted = false
        }
        nodesByEntity[entity, default: EntityNodes()].nodes.append(node)
        if node.objectID.primaryKey > lastKey { lastKey = node.objectID.primaryKey }
        changed()
        return true
    }

    /// Unregisters `nodes` (those registered).
    func remove(_ nodes: some Collection<NSAtomicStoreCacheNode>) {
        var removedByEntity: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
        for node in nodes where nodesByID[node.objectID] === node {
            nodesByID[node.objectID] = nil
            removedByEntity[ObjectIdentifier(node.objectID.entity), default: []].insert(ObjectIdentifier(node))
        }
        for (entity, removed) in removedByEntity {
            nodesByEntity[entity]?.nodes.removeAll { removed.contains(ObjectIdentifier($0)) }
        }
        changed()
    }

    func removeAll() {
        nodesByID.removeAll()
        nodesByEntity.removeAll()
        changed()
    }

    /// Every registered node.
    var allNodes: Dictionary<NSManagedObjectID, NSAtomicStoreCacheNode>.Values { nodesByID.values }

    /// Marks the table changed (a node's values were updated in place).
    func changed() {
        generation &+= 1
        cachedOrder = nil
    }

    /// The registered nodes of `entity` (and its subentities when asked), in primary-key order.
    func nodes(of entity: NSEntityDescription, includesSubentities: Bool) -> [NSAtomicStoreCacheNode] {
        let entities = includesSubentities ? entity.selfAndDescendants : [entity]
        var lists: [[NSAtomicStoreCacheNode]] = []
        for concrete in entities {
            let key = ObjectIdentifier(concrete)
            guard var nodes = nodesByEntity[key], !nodes.nodes.isEmpty else { continue }
            if !nodes.sorted {
                nodes.nodes.sort { $0.objectID.primaryKey < $1.objectID.primaryKey }
                nodes.sorted = true
                nodesByEntity[key] = nodes
            }
            lists.append(nodes.nodes)
        }
        guard lists.count > 1 else { return lists.first ?? [] }
        return lists.joined().sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
    }

    // MARK: Snapshots

    /// The node's values as a snapshot, in the slot order of `slots`: attributes converted to their stored form (a
    /// value of the wrong type is an error naming the object and the property), to-one relationships as the
    /// destination node's object ID.
    func snapshot(of node: NSAtomicStoreCacheNode, slots: PropertySlots) throws -> Snapshot {
        var values: [StoredValue] = []
        values.reserveCapacity(slots.count)
        for (slot, property) in slots.properties.enumerated() {
            let value = node.value(forKey: property.name)
            if let attribute = slots.storedAttributes[slot] {
                do {
                    values.append(try StoredValue.assigning(value, to: attribute, ofType: slots.storedAttributeTypes[slot]))
                } catch {
                    throw CoreDataError(.persistentStoreOperation,
                                        "\(node.objectID.uriRepresentation().absoluteString): \(property.name) holds a \(type(of: value!)) "
                                            + "(\(value!)), which is not a \(attribute.attributeType.xcodeName) value", underlyingError: error)
                }
            } else if let relationship = property as? NSRelationshipDescription {
                values.append(try toOneValue(value, of: node, relationship: relationship))
            } else {
                values.append(.null)
            }
        }
        return Snapshot(values: values, version: node.version)
    }

    private func toOneValue(_ value: Any?, of node: NSAtomicStoreCacheNode, relationship: NSRelationshipDescription) throws -> StoredValue {
        guard let value, !(value is NSNull) else { return .null }
        let id: NSManagedObjectID
        switch value {
        case let destination as NSAtomicStoreCacheNode: id = destination.objectID
        case let objectID as NSManagedObjectID: id = objectID
        default:
            throw CoreDataError(.persistentStoreOperation,
                                "\(node.objectID.uriRepresentation().absoluteString): the to-one relationship \(relationship.name) holds a "
                                    + "\(type(of: value)), where a cache node belongs")
        }
        if let destination = relationship.destinationEntity, !id.entity.isKind(of: destination) {
            throw CoreDataError(.persistentStoreOperation,
                                "\(node.objectID.uriRepresentation().absoluteString): the relationship \(relationship.name) leads to a "
                                    + "\(id.entity.entityName), not a \(destination.entityName)")
        }
        return .toOne(id)
    }

    /// The destinations of `node`'s to-many relationship, in order: the relationship's order when it is ordered (an
    /// array or ordered collection of nodes), else by primary key. Destinations no longer registered are left out.
    func destinations(of node: NSAtomicStoreCacheNode, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        guard let value = node.value(forKey: relationship.name), !(value is NSNull) else { return [] }
        let elements: [Any]
        switch value {
        case let set as Set<NSAtomicStoreCacheNode>: elements = Array(set)
        case let array as [NSAtomicStoreCacheNode]: elements = array
        default:
            guard let found = KeyValueLookup.elements(of: value) else {
                throw CoreDataError(.persistentStoreOperation,
                                    "\(node.objectID.uriRepresentation().absoluteString): the to-many relationship \(relationship.name) "
                                        + "holds a \(type(of: value)), where a set of cache nodes belongs")
            }
            elements = found
        }
        var ids: [NSManagedObjectID] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            let id: NSManagedObjectID
            switch element {
            case let destination as NSAtomicStoreCacheNode: id = destination.objectID
            case let objectID as NSManagedObjectID: id = objectID
            default:
                throw CoreDataError(.persistentStoreOperation,
                                    "\(node.objectID.uriRepresentation().absoluteString): the to-many relationship \(relationship.name) "
                                        + "holds a \(type(of: element)), where a cache node belongs")
            }
            guard nodesByID[id] != nil else { continue }
            ids.append(id)
        }
        let ordered = relationship.isOrdered && !(value is Set<NSAtomicStoreCacheNode>)
        return ordered ? ids : ids.sorted { $0.primaryKey < $1.primaryKey }
    }
}
