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
                // Core Data's key for the object itself: each row's object ID, under "objectID".
                if name == "objectID" { return .expression(name: name, expression: .evaluatedObject, resultType: .objectIDAttributeType) }
                throw CoreDataError(.persistentStoreOperation, "\(role) names \"\(name)\", which \(entity.entityName) does not have")
            case let property as NSPropertyDescription:
                return .property(property)
            case let description as NSExpressionDescription:
                guard let expression = description.expression else {
                    throw CoreDataError(.persistentStoreOperation, "the expression description \"\(description.name)\" has no expression")
                }
                if let path = Self.collectionKeyPath(expression.expressionNode, from: entity) {
                    // Apple's form of `"recipes.@count"`: the same correlated subquery (SQLite) or key-value path.
                    return .keyPath(name: description.name, path: path)
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

extension DictionaryShape {
    /// The key path with a collection operator that an expression description's expression spells, when it is one:
    /// `NSExpression(forKeyPath: "recipes.@count")` reads as `count:(recipes)`, which counts each row's to-many
    /// relationship when the key path ends at one (through to-one relationships or not), not the fetched rows; the
    /// other operators (`recipes.@sum.minutes`) stay key paths. Nil for anything else.
    static func collectionKeyPath(_ expression: ExpressionNode, from entity: NSEntityDescription) -> String? {
        switch expression {
        case .keyPath(let path) where path.contains("@"):
            return path
        case .function("count:", let arguments):
            guard arguments.count == 1, case .keyPath(let path) = arguments[0] else { return nil }
            let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let toMany = entity.firstToMany(along: parts), toMany.index == parts.count - 1 else { return nil }
            return path + ".@count"
        default:
            return nil
        }
    }
}

extension DictionaryShape {
    /// Whether a grouped row passes `havingPredicate`: key paths read the row's values by name, and a variable
    /// `$NAME` is the row's value named NAME, as Apple's having predicates name an expression description
    /// (`NSPredicate(format: "%@ > 100", NSExpression(forVariable: "count"))`).
    static func row(_ row: FetchedDictionary, passes having: PredicateNode) throws -> Bool {
        let values = [String: Any](row)
        do {
            let resolved = having.substitutingVariables(values.mapValues { ConstantValue(any: $0) })
            return try PredicateEvaluator(evaluatedObject: values).evaluate(resolved)
        } catch {
            throw CoreDataError(.persistentStoreOperation, "havingPredicate \(having.predicateFormat): \(error)", underlyingError: error)
        }
    }
}
