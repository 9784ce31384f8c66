import CoreDataModel
import Foundation
import Predicates

/// Fetch requests compare by what they fetch, as Apple's `-[NSFetchRequest isEqual:]`: the entity's name, the result
/// type and flags, the limit, offset and batch size, the predicates, the sort descriptors and the properties to fetch
/// and group by. The stores a request reads and the key paths it prefetches do not take part, as in Apple's.
extension NSFetchRequest {
    /// What `isEqual(_:)` answers (Swift lets a class override `NSObject`'s methods only in its own body).
    func fetchesTheSame(as object: Any?) -> Bool {
        guard let other = object as? NSFetchRequest else { return false }
        if other === self { return true }
        return resolvedEntityName == other.resolvedEntityName
            && resultType == other.resultType
            && includesSubentities == other.includesSubentities
            && includesPropertyValues == other.includesPropertyValues
            && returnsObjectsAsFaults == other.returnsObjectsAsFaults
            && includesPendingChanges == other.includesPendingChanges
            && returnsDistinctResults == other.returnsDistinctResults
            && shouldRefreshRefetchedObjects == other.shouldRefreshRefetchedObjects
            && fetchLimit == other.fetchLimit && fetchOffset == other.fetchOffset && fetchBatchSize == other.fetchBatchSize
            && predicate == other.predicate && havingPredicate == other.havingPredicate
            && sortDescriptors == other.sortDescriptors
            && Self.sameProperties(propertiesToFetch, other.propertiesToFetch)
            && Self.sameProperties(propertiesToGroupBy, other.propertiesToGroupBy)
    }

    /// What `hash` answers: equal requests hash alike, from the entity's name, the result type, the first sort key
    /// and the first property to fetch, as Apple's hash mixes them.
    var contentHash: Int {
        var hasher = Hasher()
        hasher.combine(resolvedEntityName)
        hasher.combine(resultType.rawValue)
        hasher.combine(sortDescriptors?.first?.key)
        hasher.combine(propertiesToFetch?.first.map(Self.propertyName))
        return hasher.finalize()
    }

    /// A copy that fetches the same (`copy() as! NSFetchRequest<T>`, as Apple's `NSCopying`): the predicates are
    /// shared, as Apple's copy shares them, and the lists are the copy's own.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchRequest<ResultType>()
        copy.entityName = entityName
        copy.entity = entity
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.fetchLimit = fetchLimit
        copy.fetchOffset = fetchOffset
        copy.fetchBatchSize = fetchBatchSize
        copy.resultType = resultType
        copy.includesSubentities = includesSubentities
        copy.includesPropertyValues = includesPropertyValues
        copy.returnsObjectsAsFaults = returnsObjectsAsFaults
        copy.includesPendingChanges = includesPendingChanges
        copy.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        copy.propertiesToFetch = propertiesToFetch
        copy.propertiesToGroupBy = propertiesToGroupBy
        copy.havingPredicate = havingPredicate
        copy.returnsDistinctResults = returnsDistinctResults
        copy.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        copy.affectedStores = affectedStores
        return copy
    }

    /// Properties to fetch or group by are equal when they name the same properties in the same order: a name, a
    /// property description of that name, or an expression description of the same name and expression.
    private static func sameProperties(_ lhs: [Any]?, _ rhs: [Any]?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case let (lhs?, rhs?):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { left, right in
                guard propertyName(left) == propertyName(right) else { return false }
                let leftExpression = (left as? NSExpressionDescription)?.expression
                let rightExpression = (right as? NSExpressionDescription)?.expression
                return leftExpression == rightExpression
            }
        default: return false
        }
    }

    private static func propertyName(_ property: Any) -> String {
        switch property {
        case let name as String: name
        case let expression as NSExpressionDescription: expression.name
        case let description as NSPropertyDescription: description.name
        default: String(describing: property)
        }
    }
}
