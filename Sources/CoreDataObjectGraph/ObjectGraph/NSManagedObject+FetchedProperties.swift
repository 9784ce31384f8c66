import CoreDataModel
import Foundation
import Predicates

extension NSFetchedPropertyDescription {
    /// The fetch request the property runs (Apple's `fetchRequest`): its entity, predicate and sort descriptors. Set it
    /// to define the property in code; the predicate may use `$FETCH_SOURCE` (the object whose property is read) and
    /// `$FETCHED_PROPERTY` (this description, e.g. `$FETCHED_PROPERTY.userInfo.search`).
    public var fetchRequest: NSFetchRequest<NSManagedObject>? {
        get {
            guard let fetchEntityName else { return nil }
            let request = NSFetchRequest<NSManagedObject>(entityName: fetchEntityName)
            request.predicate = predicateFormat.flatMap { try? Predicates.NSPredicate(parsing: $0) }
            request.sortDescriptors = sortDescriptors
            return request
        }
        set {
            fetchEntityName = newValue?.entityName
            predicateFormat = newValue?.predicate?.predicateFormat
            sortDescriptors = newValue?.sortDescriptors ?? []
        }
    }
}

/// Fetched properties (`NSFetchedPropertyDescription`): read through `value(forKey:)`, a fetched property runs its
/// fetch request the first time, with `$FETCH_SOURCE` standing for the object and `$FETCHED_PROPERTY` for the
/// description, and gives the results as an array of objects. The results are kept until the object is refreshed
/// (`refresh(_:mergeChanges:)`) or turns into a fault, as Apple's are: they do not follow later changes by themselves.
extension NSManagedObject {
    /// The results of `property` for this object, fetched on first use.
    func fetchedPropertyValue(_ property: NSFetchedPropertyDescription) -> [NSManagedObject]? {
        if let kept = sideState?.fetchedProperties[property.name] { return kept }
        guard let context = managedObjectContext else { return nil }
        do {
            let results = try context.fetch(try request(for: property))
            fetchedProperties[property.name] = results
            return results
        } catch {
            faultingError = CoreDataError(.coreData, "\(entity.entityName).\(property.name) of \(objectID.uriRepresentation().absoluteString): "
                                          + "the fetched property's request failed: \(error)", underlyingError: error,
                                          affectedObjectIDs: [objectID])
            return nil
        }
    }

    /// The property's fetch request with `$FETCH_SOURCE` and `$FETCHED_PROPERTY`, and key paths on them, replaced by
    /// their values, so the request compiles to SQL as any other.
    private func request(for property: NSFetchedPropertyDescription) throws -> NSFetchRequest<NSManagedObject> {
        guard let entityName = property.fetchEntityName else {
            throw CoreDataError(.coreData, "the fetched property \(entity.entityName).\(property.name) names no entity to fetch")
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.sortDescriptors = property.sortDescriptors
        if let format = property.predicateFormat {
            let parsed = try Predicates.NSPredicate(parsing: format)
            let variables: [String: Any] = ["FETCH_SOURCE": self, "FETCHED_PROPERTY": property]
            let resolved = Self.resolvingKeyPaths(on: variables, in: parsed.predicateNode)
            request.predicate = Predicates.NSPredicate.predicate(
                for: resolved.substitutingVariables(variables.mapValues { ConstantValue(any: $0) }))
        }
        return request
    }

    /// `node` with each `$VARIABLE.key.path` of `variables` replaced by the value the key path reads.
    private static func resolvingKeyPaths(on variables: [String: Any], in node: PredicateNode) -> PredicateNode {
        func resolve(_ expression: ExpressionNode) -> ExpressionNode {
            guard case .keyPathOnExpression(.variable(let name), let path) = expression, let base = variables[name] else {
                return expression
            }
            return .constant(ConstantValue(any: value(atKeyPath: path, of: base)))
        }
        switch node {
        case .comparison(var comparison):
            comparison.left = resolve(comparison.left)
            comparison.right = resolve(comparison.right)
            return .comparison(comparison)
        case .and(let subpredicates): return .and(subpredicates.map { resolvingKeyPaths(on: variables, in: $0) })
        case .or(let subpredicates): return .or(subpredicates.map { resolvingKeyPaths(on: variables, in: $0) })
        case .not(let subpredicate): return .not(resolvingKeyPaths(on: variables, in: subpredicate))
        case .constant, .block: return node
        }
    }

    /// The value at a dotted key path of an object, a fetched property description or a dictionary.
    private static func value(atKeyPath path: String, of base: Any) -> Any? {
        var current: Any? = base
        for key in path.split(separator: ".").map(String.init) {
            switch current {
            case let object as NSManagedObject:
                current = object.entity.propertiesByName[key] == nil ? nil : object.value(forKey: key)
            case let property as NSPropertyDescription:
                switch key {
                case "name": current = property.name
                case "userInfo": current = property.userInfo
                case "entity": current = property.entity?.entityName
                default: current = nil
                }
            case let dictionary as [String: String]: current = dictionary[key]
            case let dictionary as [String: Any]: current = dictionary[key]
            case let dictionary as [AnyHashable: Any]: current = dictionary[key]
            default: current = nil
            }
        }
        return current
    }
}
