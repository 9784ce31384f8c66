import CoreDataModel
import CoreDataObjectGraph
import Predicates

/// What a table shows: the objects of an entity, optionally limited to a scope (the destinations of a to-many,
/// reached through the inverse), filtered by the user's predicate and ordered by sort keys.
package struct TableQuery {
    package var entity: NSEntityDescription
    /// The relationship scope, not shown in the filter prompt (for example `recipe == <Recipe p3>`).
    package var scope: Predicates.NSPredicate?
    /// Describes the scope for the title and the breadcrumb ("ingredients of Recipe p3").
    package var scopeTitle: String?
    /// The user's filter, as typed and accepted.
    package var filter: Predicates.NSPredicate?
    package var sortKeys: [SortKey]
    /// The key paths shown as columns (`:columns`, `-`), or nil for the entity's own attributes and to-ones.
    package var columnKeys: [String]?

    package init(entity: NSEntityDescription, scope: Predicates.NSPredicate? = nil, scopeTitle: String? = nil,
                filter: Predicates.NSPredicate? = nil, sortKeys: [SortKey] = []) {
        self.entity = entity
        self.scope = scope
        self.scopeTitle = scopeTitle
        self.filter = filter
        self.sortKeys = sortKeys
    }

    /// The scope and the filter together.
    package var predicate: Predicates.NSPredicate? {
        switch (scope, filter) {
        case (nil, nil): nil
        case (let scope?, nil): scope
        case (nil, let filter?): filter
        case (let scope?, let filter?): Predicates.NSCompoundPredicate(andPredicateWithSubpredicates: [scope, filter])
        }
    }

    /// The sort descriptors (the store breaks ties by primary key, so the order is stable).
    package var sortDescriptors: [Predicates.NSSortDescriptor] {
        sortKeys.map { Predicates.NSSortDescriptor(key: $0.key, ascending: $0.ascending) }
    }

    /// A batched fetch of full objects (values loaded with each batch, so a screen costs one query).
    package func fetchRequest(batchSize: Int) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
        request.predicate = predicate
        request.sortDescriptors = sortDescriptors
        request.fetchBatchSize = batchSize
        request.returnsObjectsAsFaults = false
        return request
    }

    /// The title of the table: the entity, or the scope's description.
    package var title: String { scopeTitle ?? entity.entityName }
}
