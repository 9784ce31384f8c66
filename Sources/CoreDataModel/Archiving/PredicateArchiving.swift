import Foundation
import Predicates
import PropertyListCoding

/// Archives predicate and expression trees with the classes and keys of Apple's NSPredicate/NSExpression keyed
/// coding: the inverse of `ArchivedPredicateDecoding`, so models we write hold their derivations, validation rules
/// and fetched-property predicates.
enum PredicateArchiving {
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    static func archive(_ predicate: PredicateNode, into builder: inout KeyedArchiveBuilder) throws -> ArchivedObjectReference {
        switch predicate {
        case .constant(let value):
            return builder.addObject(className: value ? "NSTruePredicate" : "NSFalsePredicate", fields: [:])
        case .and(let parts), .or(let parts):
            let isAnd = if case .and = predicate { true } else { false }
            let archived = try parts.map { try archive($0, into: &builder) }
            return builder.addObject(className: "NSCompoundPredicate", fields: [
                "NSCompoundPredicateType": .integer(isAnd ? 1 : 2), "NSSubpredicates": builder.addArray(archived).uid,
            ])
        case .not(let inner):
            let archived = try archive(inner, into: &builder)
            return builder.addObject(className: "NSCompoundPredicate", fields: [
                "NSCompoundPredicateType": .integer(0), "NSSubpredicates": builder.addArray([archived]).uid,
            ])
        case .comparison(let comparison):
            let negated = comparison.operatorType == .notEqualTo
            let operatorType = negated ? ComparisonOperator.equalTo : comparison.operatorType
            let comparisonOperator = builder.addObject(className: "NSComparisonPredicateOperator", fields: [
                "NSOperatorType": .integer(Int64(operatorType.rawValue)), "NSModifier": .integer(Int64(comparison.modifier.rawValue)),
                "NSOptions": .integer(Int64(comparison.options.rawValue)), "NSNegate": .bool(negated),
            ])
            return builder.addObject(className: "NSComparisonPredicate", fields: [
                "NSLeftExpression": try archive(comparison.left, into: &builder).uid,
                "NSRightExpression": try archive(comparison.right, into: &builder).uid,
                "NSPredicateOperator": comparisonOperator.uid,
            ])
        case .block:
            throw Unsupported(description: "a block predicate cannot be archived")
        }
    }

    static func archive(_ expression: ExpressionNode, into builder: inout KeyedArchiveBuilder) throws -> ArchivedObjectReference {
        func object(_ className: String, _ type: Int64, _ fields: [String: PropertyListValue]) -> ArchivedObjectReference {
            var all = fields
            all["NSExpressionType"] = .integer(type)
            return builder.addObject(className: className, fields: all)
        }
        switch expression {
        case .constant(let value):
            return object("NSConstantValueExpression", 0, ["NSConstantValue": try constant(value, into: &builder)])
        case .evaluatedObject:
            return object("NSSelfExpression", 1, [:])
        case .variable(let name):
            return object("NSVariableExpression", 2, ["NSVariable": builder.addString(name).uid])
        case .keyPath(let path):
            return keyPath(path, on: object("NSSelfExpression", 1, [:]), into: &builder)
        case .keyPathOnExpression(let base, let path):
            return keyPath(path, on: try archive(base, into: &builder), into: &builder)
        case .function(let name, let arguments):
            let utilities = object("NSConstantValueExpression", 0, ["NSConstantValueClassName": builder.addString("_NSPredicateUtilities").uid])
            let archived = try arguments.map { try archive($0, into: &builder) }
            return object("NSFunctionExpression", 4, [
                "NSOperand": utilities.uid, "NSSelectorName": builder.addString(name).uid, "NSArguments": builder.addArray(archived).uid,
            ])
        case .customFunction(let receiver, let selector, let arguments):
            let archived = try arguments.map { try archive($0, into: &builder) }
            return object("NSFunctionExpression", 4, [
                "NSOperand": try archive(receiver, into: &builder).uid, "NSSelectorName": builder.addString(selector).uid,
                "NSArguments": builder.addArray(archived).uid,
            ])
        case .aggregate(let elements):
            let archived = try elements.map { try archive($0, into: &builder) }
            return object("NSAggregateExpression", 14, ["NSCollection": builder.addArray(archived).uid])
        case .subquery(let collection, let variable, let predicate):
            return object("NSSubqueryExpression", 13, [
                "NSCollection": try archive(collection, into: &builder).uid, "NSVariable": builder.addString(variable).uid,
                "NSPredicate": try archive(predicate, into: &builder).uid,
            ])
        case .conditional(let condition, let whenTrue, let whenFalse):
            return object("NSTernaryExpression", 20, [
                "NSPredicate": try archive(condition, into: &builder).uid,
                "NSTrueExpression": try archive(whenTrue, into: &builder).uid,
                "NSFalseExpression": try archive(whenFalse, into: &builder).uid,
            ])
        case .setOperation(let left, let operation, let right):
            let type: Int64 = operation == .union ? 5 : operation == .intersect ? 6 : 7
            return object("NSSetExpression", type, [
                "NSLeftExpression": try archive(left, into: &builder).uid, "NSRightExpression": try archive(right, into: &builder).uid,
            ])
        case .anyKey:
            return object("NSAnyKeyExpression", 15, [:])
        case .fetch(let request, let context, let countOnly):
            return object("NSFetchRequestExpression", 50, [
                "NSFRExpression": try archive(request, into: &builder).uid, "NSMOCExpression": try archive(context, into: &builder).uid,
                "NSCountOnlyFlag": .bool(countOnly),
            ])
        case .index:
            throw Unsupported(description: "index expressions cannot be archived")
        }
    }

    private static func keyPath(_ path: String, on operand: ArchivedObjectReference, into builder: inout KeyedArchiveBuilder) -> ArchivedObjectReference {
        let specifier = builder.addObject(className: "NSKeyPathSpecifierExpression", fields: [
            "NSKeyPath": builder.addString(path).uid, "NSExpressionType": .integer(10),
        ])
        return builder.addObject(className: "NSKeyPathExpression", fields: [
            "NSOperand": operand.uid, "NSSelectorName": builder.addString(path.contains(".") ? "valueForKeyPath:" : "valueForKey:").uid,
            "NSArguments": builder.addArray([specifier]).uid, "NSExpressionType": .integer(3),
        ])
    }

    private static func constant(_ value: ConstantValue, into builder: inout KeyedArchiveBuilder) throws -> PropertyListValue {
        switch value {
        case .null: return KeyedArchiveBuilder.nullReference.uid
        case .nullObject: return builder.addNull().uid
        case .bool(let v): return .bool(v)
        case .integer(let v): return .integer(v)
        case .double(let v): return .real(v)
        case .decimal(let v): return .real(NSDecimalNumber(decimal: v).doubleValue)
        case .string(let v): return builder.addString(v).uid
        case .date(let v): return builder.addDate(v).uid
        case .data(let v): return .data(v)
        case .uuid(let v): return builder.addUUID(v).uid
        case .url(let v): return builder.addURL(v).uid
        case .array(let elements):
            var references: [ArchivedObjectReference] = []
            for element in elements {
                let archived = try constant(element, into: &builder)
                if case .uid(let index) = archived { references.append(ArchivedObjectReference(index: Int(index))) } else {
                    references.append(try builder.addPlainValue(archived))
                }
            }
            return builder.addArray(references).uid
        case .dictionary, .object:
            throw Unsupported(description: "a \(value) constant cannot be archived in a model")
        }
    }
}
