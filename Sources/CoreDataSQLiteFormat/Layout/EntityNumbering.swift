import CoreDataModel

/// Core Data's entity numbers (`Z_ENT`, store format reference §4.2).
///
/// Entities are sorted by name; each root entity in that order is walked depth first, pre-order, into its
/// subentities sorted case-insensitively, and each visited entity takes the next number from 1. A hierarchy's
/// numbers are therefore contiguous, so `Z_ENT BETWEEN first AND last` selects an entity and its descendants.
public struct EntityNumbering: Sendable, Equatable {
    /// Entity name → `Z_ENT`.
    public let numbers: [String: Int]
    /// Entity name → the last number of its subtree (its own number when it has no subentities).
    public let subtreeEnds: [String: Int]
    /// Entity names in number order.
    public let namesInNumberOrder: [String]

    public init(model: NSManagedObjectModel) {
        var numbers: [String: Int] = [:]
        var ends: [String: Int] = [:]
        var order: [String] = []
        var next = 1
        func visit(_ entity: NSEntityDescription) {
            numbers[entity.entityName] = next
            order.append(entity.entityName)
            next += 1
            for child in entity.subentities.sorted(by: EntityOrdering.subentityPrecedes) {
                visit(child)
            }
            ends[entity.entityName] = next - 1
        }
        let roots = model.entities.filter { $0.superentity == nil }.sorted(by: EntityOrdering.subentityPrecedes)
        roots.forEach(visit)
        self.numbers = numbers
        self.subtreeEnds = ends
        self.namesInNumberOrder = order
    }

    public subscript(entityName: String) -> Int? { numbers[entityName] }

    /// The `Z_ENT` values of an entity and all its descendants.
    public func range(of entityName: String) -> ClosedRange<Int>? {
        guard let first = numbers[entityName], let last = subtreeEnds[entityName] else { return nil }
        return first...last
    }
}
