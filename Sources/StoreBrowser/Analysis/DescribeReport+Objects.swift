import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess

extension DescribeReport {
    /// The same statistics for a store that is not SQLite (XML, binary, in memory, custom), through fetches a store of
    /// any type answers: counts, a distinct dictionary fetch per attribute, and the least and greatest by a sort (the
    /// order the table shows).
    init(query: TableQuery, context: NSManagedObjectContext) throws {
        let entity = query.entity
        let attributes = entity.allProperties.compactMap { $0 as? NSAttributeDescription }.filter { !$0.isTransient }
        func request<Result>(_ extra: Predicates.NSPredicate?) -> NSFetchRequest<Result> {
            let request = NSFetchRequest<Result>(entityName: entity.entityName)
            let parts = [query.predicate, extra].compactMap { $0 }
            request.predicate = parts.count > 1 ? Predicates.NSCompoundPredicate(andPredicateWithSubpredicates: parts) : parts.first
            return request
        }
        let (total, rows) = try context.performAndWait { () throws -> (Int, [Row]) in
            let total = try context.count(for: request(nil) as NSFetchRequest<NSManagedObject>)
            var rows: [Row] = []
            for attribute in attributes {
                let key = attribute.name
                let present = Predicates.NSPredicate(format: "%K != nil", argumentArray: [key])
                let values = try context.count(for: request(present) as NSFetchRequest<NSManagedObject>)
                let distinctRequest: NSFetchRequest<FetchedDictionary> = request(present)
                distinctRequest.resultType = .dictionaryResultType
                distinctRequest.propertiesToFetch = [key]
                distinctRequest.returnsDistinctResults = true
                let distinct = try context.fetch(distinctRequest).count
                var bounds: [String] = []
                if Self.hasOrder(attribute.attributeType), values > 0 {
                    for ascending in [true, false] {
                        let ends: NSFetchRequest<NSManagedObject> = request(present)
                        ends.sortDescriptors = [Predicates.NSSortDescriptor(key: key, ascending: ascending)]
                        ends.fetchLimit = 1
                        let value = try context.fetch(ends).first?.propertyValue(forKey: key)
                        let text = ValueFormatting.text(value)
                        bounds.append(attribute.attributeType == .stringAttributeType ? String(text.prefix(30)) : text)
                    }
                }
                rows.append(Row(key: key, type: attribute.attributeType, values: values, nulls: total - values, distinct: distinct,
                                minimum: bounds.first ?? "", maximum: bounds.last ?? ""))
            }
            return (total, rows)
        }
        self.total = total
        self.rows = rows
    }
}
