import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess

/// The fast path of `query`: when every key is an attribute, a key path through to-one relationships to an
/// attribute, a to-one relationship, or a collection operator on a to-many relationship (`ingredients.@count`,
/// `recipes.@avg.minutes`), the rows come from dictionary fetches (the store's SQL, key paths joined there,
/// collection operators as correlated subqueries) streamed from one statement, and each value is read in its own
/// type. No object is registered.
struct DictionaryRows {
    /// How one output column is read from a dictionary row.
    private enum Column {
        /// An attribute, of the fetched entity or (`through`) of the destination of one of its to-one relationships.
        case value(key: String, type: NSAttributeType, through: String?)
        /// A to-one relationship: the destination's object ID, and its label attribute fetched through the join.
        case reference(key: String, labelKey: String?, label: EntityLabel)
        /// A collection operator on one of the fetched entity's to-many relationships, computed by the store.
        case aggregate(key: String, isCount: Bool)
    }

    /// How a column's value is read from a row, without its key: the per-row loop switches on this trivial
    /// enum instead of copying a `Column` (which holds strings) for every cell.
    private enum Read {
        case string, integer, double, date, boolean, other, reference
    }

    private let columns: [Column]
    private let reads: [Read]
    /// Each column's key in the dictionary rows.
    private let keys: [String]
    private let fetched: [String]
    private let storeIdentifier: String
    private let storePath: String
    private let entity: NSEntityDescription

    /// The plan for `keyPaths` from `entity`, or nil when one of them needs objects (to-many relationships,
    /// collection operators the store would not compute exactly as key-value coding does, transient or externally
    /// stored attributes, key paths through more than one relationship).
    init?(keyPaths: [String], entity: NSEntityDescription, storeIdentifier: String, storePath: String) {
        var columns: [Column] = []
        var fetched: [String] = []
        for keyPath in keyPaths {
            guard let column = Self.column(keyPath, from: entity) else { return nil }
            columns.append(column)
            switch column {
            case .value(let key, _, _), .aggregate(let key, _): fetched.append(key)
            case .reference(let key, let labelKey, _):
                fetched.append(key)
                if let labelKey { fetched.append(labelKey) }
            }
        }
        self.columns = columns
        keys = columns.map { column in
            switch column {
            case .value(let key, _, _), .reference(let key, _, _), .aggregate(let key, _): key
            }
        }
        reads = columns.map { column in
            switch column {
            case .value(_, let type, _):
                switch type {
                case .stringAttributeType: .string
                case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: .integer
                case .doubleAttributeType: .double
                case .dateAttributeType: .date
                case .booleanAttributeType: .boolean
                default: .other
                }
            case .reference: .reference
            case .aggregate(_, let isCount): isCount ? .integer : .other
            }
        }
        self.fetched = Array(NSOrderedSet(array: fetched)) as! [String]
        self.storeIdentifier = storeIdentifier
        self.storePath = storePath
        self.entity = entity
    }

    private static func column(_ keyPath: String, from entity: NSEntityDescription) -> Column? {
        let parts = keyPath.split(separator: ".").map(String.init)
        var current = entity
        for (index, part) in parts.enumerated() {
            guard let property = current.propertiesByName[part], !property.isTransient else { return nil }
            let isLast = index == parts.count - 1
            if let attribute = property as? NSAttributeDescription {
                guard isLast, !attribute.allowsExternalBinaryDataStorage else { return nil }
                return .value(key: keyPath, type: attribute.attributeType, through: index == 1 ? parts[0] : nil)
            }
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                return index == 0 ? aggregate(keyPath, relationship: relationship, operation: Array(parts.dropFirst())) : nil
            }
            guard let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity else { return nil }
            // The store returns a relationship's object ID only for the fetched entity's own relationships, and
            // that ID is what tells a NULL value from a reference to a missing row.
            guard index == 0 else { return nil }
            if isLast {
                let label = EntityLabel(entity: destination)
                return .reference(key: keyPath, labelKey: label.attributeName.map { "\(keyPath).\($0)" }, label: label)
            }
            current = destination
        }
        return nil
    }

    /// `relationship.@count`, or `@sum`, `@avg`, `@min`, `@max` of one attribute of its destination, when the store's
    /// subquery gives exactly what key-value coding gives the object path: the relationship must be recorded (it has
    /// an inverse) and the attribute a number (integers, booleans, floating point; dates for `@min`/`@max`).
    /// Decimals (summed as `Decimal` by the object path, as REAL by SQLite) and strings (ordered by Foundation's
    /// `compare(_:)`, not SQLite's) take the object path. Only on the fetched entity's own relationships: through a
    /// to-one that is nil the object path gives nil where SQL would count zero.
    private static func aggregate(_ keyPath: String, relationship: NSRelationshipDescription, operation: [String]) -> Column? {
        guard !relationship.isTransient, relationship.inverseRelationship != nil,
              let destination = relationship.destinationEntity, let operatorName = operation.first else { return nil }
        if operatorName == "@count" { return operation.count == 1 ? .aggregate(key: keyPath, isCount: true) : nil }
        guard ["@sum", "@avg", "@min", "@max"].contains(operatorName), operation.count == 2,
              let attribute = destination.propertiesByName[operation[1]] as? NSAttributeDescription, !attribute.isTransient
        else { return nil }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .floatAttributeType:
            return .aggregate(key: keyPath, isCount: false)
        case .dateAttributeType where operatorName == "@min" || operatorName == "@max":
            return .aggregate(key: keyPath, isCount: false)
        default:
            return nil
        }
    }

    /// Streams the rows (`enumerateDictionaries`) and hands each to `body` as cells, in the request's order,
    /// within its limit and offset.
    func forEachRow(_ base: NSFetchRequest<NSManagedObject>, context: NSManagedObjectContext,
                    _ body: ([CellValue]) throws -> Void) throws {
        let request = NSFetchRequest<FetchedDictionary>(entityName: base.entityName ?? "")
        request.resultType = .dictionaryResultType
        request.predicate = base.predicate
        request.sortDescriptors = base.sortDescriptors
        request.propertiesToFetch = fetched
        request.fetchOffset = base.fetchOffset
        request.fetchLimit = base.fetchLimit
        // A NULL joined through a relationship may be a NULL value or a key leading to no row: the first NULL
        // in such a column looks for broken keys (one anti-join), before that row is written.
        var checks: [Int: (check: DanglingReferences, keyPath: String)] = [:]
        if let model = context.persistentStoreCoordinator?.managedObjectModel {
            for (index, column) in columns.enumerated() {
                if case .value(let key, _, let through?) = column,
                   let check = DanglingReferences(entity: entity, relationship: through, model: model, storePath: storePath) {
                    checks[index] = (check, key)
                }
            }
        }
        var cells = [CellValue](repeating: .null, count: columns.count)
        do {
            // One statement, each row written as SQLite steps to it: nothing is held between rows.
            try context.enumerateDictionaries(request) { row in
                for index in 0..<cells.count {
                    let value = cell(index, of: row)
                    let isNull = if case .null = value { true } else { false }
                    cells[index] = value
                    if isNull, !checks.isEmpty, let (check, keyPath) = checks.removeValue(forKey: index) {
                        let keys = try check.brokenKeys()
                        if !keys.isEmpty { throw BrokenReferences(check: check, keyPath: keyPath, keys: keys) }
                        // The relationship is sound: its other key paths need no check either.
                        checks = checks.filter { $0.value.check.relationship != check.relationship }
                    }
                }
                try body(cells)
            }
        } catch let broken as BrokenReferences {
            // Out of the store's lock now: the checker reads the objects to name the damage.
            var checker = ReferenceChecker(request: base, context: context)
            guard let coordinator = context.persistentStoreCoordinator, let store = coordinator.persistentStores.first else { throw broken }
            for key in broken.keys {
                let uri = URL(string: "x-coredata://\(store.storeIdentifier)/\(broken.check.destination.entityName)/p\(key)")!
                if let id = coordinator.managedObjectID(forURIRepresentation: uri) {
                    try checker.check(id, relationship: broken.check.relationship, keyPath: broken.keyPath)
                }
            }
            throw CommandFailure("\(broken.keyPath): \(broken.check.relationship) refers to rows of \(broken.check.destination.entityName) that do not exist (primary keys \(broken.keys.map(String.init).joined(separator: ", ")))")
        }
    }

    /// Thrown out of the enumeration when a relationship's keys lead to no row.
    private struct BrokenReferences: Error {
        var check: DanglingReferences
        var keyPath: String
        var keys: [Int64]
    }

    private func cell(_ index: Int, of row: FetchedDictionary) -> CellValue {
        let key = keys[index]
        switch reads[index] {
        case .string: return row[key, as: String.self].map(CellValue.string) ?? .null
        case .integer: return row[key, as: Int64.self].map(CellValue.integer) ?? .null
        case .double: return row[key, as: Double.self].map(CellValue.double) ?? .null
        case .date: return row[key, as: Date.self].map(CellValue.date) ?? .null
        case .boolean: return row[key, as: Bool.self].map(CellValue.boolean) ?? .null
        case .other: return CellValue(row[key])
        case .reference:
            guard case .reference(_, let labelKey, let label) = columns[index] else { return .null }
            guard let id = row[key, as: NSManagedObjectID.self] else { return .null }
            // A reference alone is printed as it is stored (as objects print it, without fulfilling the fault): a
            // missing destination row labels as "Entity pN".
            let value = labelKey.flatMap { row[$0, as: String.self] }
            let name = id.entity.entityName
            return .reference(uri: "x-coredata://\(storeIdentifier)/\(name)/p\(id.primaryKey)",
                              label: label.label(value: value, primaryKey: id.primaryKey, entityName: name))
        }
    }
}

/// Checks that a to-one reference whose joined values came back NULL leads to a row of its destination, so that
/// a damaged store stops `query` with the object, the key path and what is wrong, as reading objects does.
struct ReferenceChecker {
    let request: NSFetchRequest<NSManagedObject>
    let context: NSManagedObjectContext
    /// Destinations already found to exist, by relationship: each is looked up once.
    private var present: [String: Set<Int64>] = [:]

    init(request: NSFetchRequest<NSManagedObject>, context: NSManagedObjectContext) {
        self.request = request
        self.context = context
    }

    mutating func check(_ id: NSManagedObjectID, relationship: String, keyPath: String) throws {
        guard present[relationship]?.contains(id.primaryKey) != true else { return }
        do {
            _ = try context.existingObject(with: id)
            present[relationship, default: []].insert(id.primaryKey)
        } catch {
            // The first object of the fetch that holds the reference, to name it as the object path does.
            let holder = NSFetchRequest<NSManagedObject>(entityName: request.entityName ?? "")
            let refers = try? Predicates.NSPredicate(parsing: "%K == %@", argumentArray: [relationship, id])
            holder.predicate = Predicates.NSCompoundPredicate(andPredicateWithSubpredicates: [request.predicate, refers].compactMap { $0 })
            holder.sortDescriptors = request.sortDescriptors
            holder.fetchLimit = 1
            let uri = (try? context.fetch(holder).first)?.objectID.uriRepresentation().absoluteString ?? id.uriRepresentation().absoluteString
            let message = (error as? CoreDataError)?.message ?? "\(error)"
            throw CommandFailure("\(keyPath) of \(uri): \(message)")
        }
    }
}
