import CoreDataModel
import Predicates

/// Expressions to operands: key paths through to-one joins, to-many relationships as correlated subqueries,
/// collection aggregates, `SUBQUERY(…).@count`, `SELF` and `$variables`.
extension PredicateCompilation {
    /// Resolves `expression` for a comparison whose canonical format is `format`.
    func operand(_ expression: ExpressionNode, format: String) throws(PredicateSQLError) -> Operand {
        switch expression {
        case .constant(let value):
            // `NSNull()` is a null here; it differs from nil only in print.
            return .constant(value.withoutNullObject)
        case .aggregate(let elements):
            var values: [ConstantValue] = []
            for element in elements {
                guard case .constant(let value) = element else {
                    throw refusal("aggregate", expression.predicateFormat, "only constants can be listed in { … }")
                }
                values.append(value.withoutNullObject)
            }
            return .constant(.array(values))
        case .evaluatedObject:
            return objectOperand(of: root)
        case .variable(let name):
            guard let scope = variables[name] else { throw unboundVariable(name, expression) }
            return objectOperand(of: scope)
        case .keyPath(let path):
            let resolved = try resolve(keyPath: path, in: root, format: expression.predicateFormat, construct: "key path")
            return try applyingCollectionOperator(resolved, format: expression.predicateFormat)
        case .keyPathOnExpression(.variable(let name), let path):
            guard let scope = variables[name] else { throw unboundVariable(name, expression) }
            let resolved = try resolve(keyPath: path, in: scope, format: expression.predicateFormat, construct: "key path")
            return try applyingCollectionOperator(resolved, format: expression.predicateFormat)
        case .keyPathOnExpression(.subquery(let collection, let variable, let predicate), "@count"):
            return try subqueryCount(collection, variable, predicate, format: expression.predicateFormat)
        case .function("count:", let arguments) where arguments.count == 1:
            if case .subquery(let collection, let variable, let predicate) = arguments[0] {
                return try subqueryCount(collection, variable, predicate, format: expression.predicateFormat)
            }
            return try aggregate("@count", over: arguments[0], format: expression.predicateFormat)
        case .function(let name, let arguments) where arguments.count == 1 && Self.aggregateOperators[name] != nil:
            return try aggregate(Self.aggregateOperators[name] ?? "", over: arguments[0], format: expression.predicateFormat)
        case .function(let name, _):
            throw refusal(
                "function \(name)", expression.predicateFormat,
                "only count:, sum:, average:, min: and max: of a to-many key path are compiled to SQL")
        case .customFunction(_, let selector, _):
            throw refusal(
                "FUNCTION expression", expression.predicateFormat,
                "FUNCTION(…, \"\(selector)\") calls a method, which SQL cannot run")
        case .keyPathOnExpression:
            throw refusal(
                "key path on an expression", expression.predicateFormat,
                "only $variable.key and SUBQUERY(…).@count are compiled to SQL")
        case .index:
            throw refusal("index expression", expression.predicateFormat, "collection and dictionary indexes have no SQL form")
        case .setOperation(_, let operation, _):
            throw refusal("\(operation.rawValue) expression", expression.predicateFormat, "set operations have no SQL form")
        case .subquery:
            throw refusal("SUBQUERY", expression.predicateFormat, "a SUBQUERY is compiled only with .@count or count:()")
        case .conditional:
            throw refusal("TERNARY expression", expression.predicateFormat, "conditional expressions are not compiled to SQL")
        case .anyKey:
            throw refusal("ANYKEY", expression.predicateFormat, "ANYKEY is a Spotlight construct with no SQL form")
        case .fetch:
            throw refusal("FETCH expression", expression.predicateFormat, "a nested fetch is not compiled to SQL")
        }
    }

    /// `items.@sum.price`: a to-many path followed by a collection operator becomes the aggregate.
    func applyingCollectionOperator(_ resolved: Operand, format: String) throws(PredicateSQLError) -> Operand {
        guard case .toMany(let step, let rest) = resolved, let first = rest.first, first.hasPrefix("@") else {
            return resolved
        }
        return try aggregate(first, step: step, attributePath: Array(rest.dropFirst()), format: format)
    }

    static let aggregateOperators = ["sum:": "@sum", "average:": "@avg", "min:": "@min", "max:": "@max"]

    private func unboundVariable(_ name: String, _ expression: ExpressionNode) -> PredicateSQLError {
        refusal("variable", expression.predicateFormat, "$\(name) is not bound; substitute variables before fetching")
    }

    /// The primary key of the scope's rows, standing for the objects themselves.
    func objectOperand(of scope: QueryScope) -> Operand {
        .value(SQLFragment("\(scope.alias).Z_PK"), .object(root: scope.entity.rootEntity.entityName))
    }

    // MARK: Key paths

    /// Resolves a dotted key path from `scope`'s rows: attributes become columns, to-one relationships their key
    /// columns or `LEFT JOIN`s on the destination's table, and the first to-many relationship stops the walk.
    func resolve(
        keyPath path: String, in scope: QueryScope, format: String, construct: String
    ) throws(PredicateSQLError) -> Operand {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var entity = scope.entity
        var alias = scope.alias
        var joinedPath = ""
        for (position, name) in components.enumerated() {
            let isLast = position == components.count - 1
            if name.hasPrefix("@") {
                throw refusal(construct, format, "the collection operator \(name) must follow a to-many relationship")
            }
            guard let property = entity.propertiesByName[name] else {
                throw refusal(construct, format, "entity \(entity.entityName) has no property named '\(name)'")
            }
            if property.isTransient && !(property is NSDerivedAttributeDescription) {
                throw refusal(
                    "key path through a transient property", format,
                    "\(entity.entityName).\(name) is transient and has no column in the store")
            }
            switch property {
            case let attribute as NSAttributeDescription:
                guard isLast else {
                    throw refusal(construct, format, "\(entity.entityName).\(name) is an attribute; the key path cannot continue past it")
                }
                guard let kind = ValueKind(attribute.attributeType),
                      let column = layout.columns(forProperty: name, ofEntity: entity.entityName)
                else {
                    throw refusal(
                        construct, format,
                        "\(entity.entityName).\(name) is a \(attribute.attributeType.xcodeName) attribute, which SQL cannot compare")
                }
                return .value(SQLFragment("\(alias).\(SQLFragment.identifier(column.value))"), kind)
            case let relationship as NSRelationshipDescription:
                guard let destination = relationship.destinationEntity else {
                    throw refusal(construct, format, "\(entity.entityName).\(name) has no destination entity in the model")
                }
                if relationship.isToMany {
                    return .toMany(
                        ToManyStep(ownerAlias: alias, relationship: relationship, destination: destination),
                        rest: Array(components[(position + 1)...]))
                }
                guard let column = layout.columns(forProperty: name, ofEntity: entity.entityName) else {
                    throw refusal(construct, format, "\(entity.entityName).\(name) has no column in the store")
                }
                if isLast {
                    return .value(
                        SQLFragment("\(alias).\(SQLFragment.identifier(column.value))"),
                        .object(root: destination.rootEntity.entityName))
                }
                guard let table = layout.table(forEntity: destination.entityName) else {
                    throw refusal(construct, format, "entity \(destination.entityName) has no table")
                }
                joinedPath += (joinedPath.isEmpty ? "" : ".") + name
                let owner = alias
                alias = scope.joinAlias(forPath: joinedPath, newAlias: newAlias) { joined in
                    var join = "LEFT JOIN \(SQLFragment.identifier(table.name)) \(joined) ON \(joined).Z_PK = "
                        + "\(owner).\(SQLFragment.identifier(column.value))"
                    if let restriction = entityRestriction(alias: joined, entity: destination) {
                        join += " AND " + restriction
                    }
                    return join
                }
                cost += 2
                entity = destination
            default:
                throw refusal(
                    "key path through a fetched property", format,
                    "\(entity.entityName).\(name) is a fetched property, evaluated by a separate fetch")
            }
        }
        return objectOperand(of: scope)
    }

    // MARK: To-many relationships

    /// The `FROM … WHERE …` of a subquery over the destination rows of a to-many step, correlated with its owner:
    /// through the inverse's key column (one-to-many) or the join table (many-to-many).
    func correlatedSource(
        _ step: ToManyStep, format: String
    ) throws(PredicateSQLError) -> (from: String, correlation: String, scope: QueryScope) {
        let relationship = step.relationship
        let ownerName = relationship.entity?.entityName ?? ""
        guard let inverse = relationship.inverseRelationship,
              let table = layout.table(forEntity: step.destination.entityName)
        else {
            throw refusal(
                "to-many key path", format,
                "\(ownerName).\(relationship.name) has no inverse relationship, so the store does not record it")
        }
        let scope = QueryScope(entity: step.destination, alias: newAlias())
        cost += 50
        var from: String
        var correlation: String
        if inverse.isToMany {
            guard let join = layout.joinTable(forRelationship: relationship.name, ofEntity: ownerName) else {
                throw refusal("to-many key path", format, "no join table for \(ownerName).\(relationship.name)")
            }
            let ownsSourceColumn = join.entityName == ownerName && join.relationshipName == relationship.name
            let ownerColumn = ownsSourceColumn ? join.sourceKeyColumn : join.destinationKeyColumn
            let destinationColumn = ownsSourceColumn ? join.destinationKeyColumn : join.sourceKeyColumn
            let link = newAlias()
            from = "\(SQLFragment.identifier(join.name)) \(link) JOIN \(SQLFragment.identifier(table.name)) \(scope.alias) "
                + "ON \(scope.alias).Z_PK = \(link).\(SQLFragment.identifier(destinationColumn))"
            correlation = "\(link).\(SQLFragment.identifier(ownerColumn)) = \(step.ownerAlias).Z_PK"
        } else {
            guard let key = layout.columns(forProperty: inverse.name, ofEntity: step.destination.entityName) else {
                throw refusal("to-many key path", format, "\(step.destination.entityName).\(inverse.name) has no column")
            }
            from = "\(SQLFragment.identifier(table.name)) \(scope.alias)"
            correlation = "\(scope.alias).\(SQLFragment.identifier(key.value)) = \(step.ownerAlias).Z_PK"
        }
        if let restriction = entityRestriction(alias: scope.alias, entity: step.destination) {
            correlation += " AND " + restriction
        }
        return (from, correlation, scope)
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` over a to-many key path, as a correlated scalar subquery.
    /// Empty collections give 0 for `@count` and `@sum` and NULL otherwise, as the evaluator's operators do.
    func aggregate(
        _ collectionOperator: String, over expression: ExpressionNode, format: String
    ) throws(PredicateSQLError) -> Operand {
        let resolved = try operand(expression, format: format)
        guard case .toMany(let step, let rest) = resolved else {
            throw refusal("\(collectionOperator) aggregate", format, "\(collectionOperator) needs a to-many key path")
        }
        return try aggregate(collectionOperator, step: step, attributePath: rest, format: format)
    }

    func aggregate(
        _ collectionOperator: String, step: ToManyStep, attributePath: [String], format: String
    ) throws(PredicateSQLError) -> Operand {
        let source = try correlatedSource(step, format: format)
        let head = "(SELECT "
        let tail = { (scope: QueryScope) in
            " FROM \(source.from)\(scope.joinClause) WHERE \(source.correlation))"
        }
        if collectionOperator == "@count" {
            guard attributePath.isEmpty else {
                throw refusal("@count aggregate", format, "@count counts related objects; it takes no key after it")
            }
            return .value(SQLFragment(head + "COUNT(*)" + tail(source.scope)), .number)
        }
        let function: String
        switch collectionOperator {
        case "@sum": function = "SUM"
        case "@avg": function = "AVG"
        case "@min": function = "MIN"
        case "@max": function = "MAX"
        default:
            throw refusal(
                "\(collectionOperator) aggregate", format,
                "only @count, @sum, @avg, @min and @max are compiled to SQL")
        }
        guard !attributePath.isEmpty else {
            throw refusal("\(collectionOperator) aggregate", format, "\(collectionOperator) needs a key after it, as in @sum.price")
        }
        let element = try resolve(
            keyPath: attributePath.joined(separator: "."), in: source.scope, format: format,
            construct: "\(collectionOperator) aggregate")
        guard case .value(let column, let kind) = element else {
            throw refusal("\(collectionOperator) aggregate", format, "the key after \(collectionOperator) crosses a second to-many relationship")
        }
        // Strings are ordered by Foundation's compare:, not SQLite's; sums and averages need numbers.
        guard kind == .number || (kind == .date && (function == "MIN" || function == "MAX")) else {
            throw refusal("\(collectionOperator) aggregate", format, "\(collectionOperator) of a \(kind) attribute is not compiled to SQL")
        }
        let computed = function == "SUM" ? "coalesce(SUM(\(column.sql)), 0)" : "\(function)(\(column.sql))"
        return .value(SQLFragment(head + computed + tail(source.scope)), kind)
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`: a correlated count in which `$variable` is the related
    /// row and bare key paths still read the fetched object.
    func subqueryCount(
        _ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode, format: String
    ) throws(PredicateSQLError) -> Operand {
        guard case .toMany(let step, let rest) = try operand(collection, format: format), rest.isEmpty else {
            throw refusal("SUBQUERY", format, "the SUBQUERY collection must be a to-many relationship")
        }
        let source = try correlatedSource(step, format: format)
        let shadowed = variables[variable]
        variables[variable] = source.scope
        defer { variables[variable] = shadowed }
        let condition = try compile(predicate)
        let body = SQLFragment(
            "(SELECT COUNT(*) FROM \(source.from)\(source.scope.joinClause) WHERE \(source.correlation) AND ")
        return .value(body + condition.fragment.parenthesized + ")", .number)
    }
}
