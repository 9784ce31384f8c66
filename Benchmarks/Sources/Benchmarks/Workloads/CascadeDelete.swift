import Foundation
import GRDB
import OpenCoreData

/// Issue 7's cascade delete: `parents` parents with `childrenEach` children each, deleted a batch of parents per save.
/// Ours deletes the parents and lets the cascade rule delete the children (their rows prefetched with the parents,
/// as the seeds advise); the floor deletes each parent's children by the indexed foreign key, then the parent.
enum CascadeDelete {
    static let entities = ["Parent", "Child"]

    static func workload(factory: StoreFactory, parents: Int, childrenEach: Int = 10, batch: Int) throws -> Workload {
        let template = try factory.familyStore(parents: parents, childrenEach: childrenEach)
        let model = WriteModels.families()
        let raw = WritingContenders.raw(template: template, entities: entities) { database, watch in
            try watch.measure {
                let select = try database.prepare("SELECT Z_PK, Z_OPT FROM ZPARENT WHERE ZNUMBER >= ? AND ZNUMBER < ?")
                let deleteChildren = try database.prepare("DELETE FROM ZCHILD WHERE ZPARENT = ?")
                let deleteParent = try database.prepare("DELETE FROM ZPARENT WHERE Z_PK = ? AND Z_OPT = ?")
                var rows: [(key: Int64, version: Int64)] = []
                for range in batches(parents, size: batch) {
                    try database.execute("BEGIN IMMEDIATE")
                    rows.removeAll(keepingCapacity: true)
                    select.bind(Int64(range.lowerBound), at: 1)
                    select.bind(Int64(range.upperBound), at: 2)
                    while try select.step() { rows.append((select.int64(0), select.int64(1))) }
                    select.reset()
                    for row in rows {
                        deleteChildren.bind(row.key, at: 1)
                        _ = try deleteChildren.step()
                        deleteChildren.reset()
                        deleteParent.bind(row.key, at: 1)
                        deleteParent.bind(row.version, at: 2)
                        _ = try deleteParent.step()
                        deleteParent.reset()
                    }
                    try database.execute("COMMIT")
                }
            }
        }
        let ours = WritingContenders.ours("ours · delete parents (children prefetched), cascade rule", template: template,
                                          model: model, entities: entities) { context, watch in
            try watch.measure {
                for range in batches(parents, size: batch) {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Parent")
                    request.predicate = NSPredicate(format: "number >= %@ AND number < %@", argumentArray: [range.lowerBound, range.upperBound])
                    request.relationshipKeyPathsForPrefetching = ["children"]
                    for parent in try context.fetch(request) { context.delete(parent) }
                    try context.save()
                    context.reset()
                }
            }
        }
        let grdb = WritingContenders.grdb("GRDB · query interface deletes", template: template, entities: entities) { queue, watch in
            let parentTable = Table("ZPARENT"), childTable = Table("ZCHILD")
            try watch.measure {
                for range in batches(parents, size: batch) {
                    try queue.write { db in
                        let keys = try Int64.fetchAll(db, parentTable.select(Column("Z_PK"))
                            .filter(Column("ZNUMBER") >= range.lowerBound && Column("ZNUMBER") < range.upperBound))
                        for key in keys {
                            _ = try childTable.filter(Column("ZPARENT") == key).deleteAll(db)
                            _ = try parentTable.deleteOne(db, key: key)
                        }
                    }
                }
            }
        }
        return Workload(
            group: "saves", name: "cascade delete \(parents.formatted()) parents × \(childrenEach) children, \(batch.formatted()) parents per save",
            rows: parents * (childrenEach + 1), implementations: [raw, ours, grdb])
    }
}
