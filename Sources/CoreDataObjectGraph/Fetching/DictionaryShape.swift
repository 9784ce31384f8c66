import CoreDataModel
import Predicates

extension DictionaryShape {
    /// Reads `propertiesToFetch`, `propertiesToGroupBy`, `havingPredicate` and `returnsDistinctResults`.
    init<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription) throws {
        func column(_ item: Any, role: String) throws -> Column {
            switch item {
            case let name as String:
                if let property = entity.propertiesByName[name] { return .property(property) }
                if name.contains(".") { return .keyPath(name: name, path: name) }
                throw CoreDataError(.persistentStoreOperation, "\(role) names \"\(name)\", which \(entity.entityName) does not have")
            case let property as NSPropertyDescription:
                return .property(property)
            case let description as NSExpressionDescription:
                guard let expression = description.expression else {
                    throw CoreDataError(.persistentStoreOperation, "the expression description \"\(description.name)\" has no expression")
                }
                return .expression(name: description.name, expression: expression.expressionNode, resultType: description.expressionResultType)
            default:
                throw CoreDataError(.persistentStoreOperation, "\(role) holds a \(type(of: item)); use names, property descriptions or NSExpressionDescription")
            }
        }
        let fetched = try (request.propertiesToFetch ?? entity.allProperties.filter { $0 is NSAttributeDescription && !$0.isTransient })
            .map { try column($0, role: "propertiesToFetch") }
        let grouped = try (request.propertiesToGroupBy ?? []).map { try column($0, role: "propertiesToGroupBy") }
        self.init(columns: fetched, groupBy: grouped, having: request.havingPredicate?.predicateNode,
                  distinct: request.returnsDistinctResults)
    }
}
