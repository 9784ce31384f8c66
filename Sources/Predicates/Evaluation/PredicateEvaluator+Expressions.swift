import Foundation
import KeyValueCoding

extension PredicateEvaluator {
    /// The value of `expression` for the evaluated object.
    public func value(of expression: ExpressionNode) throws(PredicateEvaluationError) -> ConstantValue {
        switch expression {
        case .constant(let constant):
            return constant.withoutNullObject
        case .evaluatedObject:
            return ConstantValue(any: evaluatedObject)
        case .variable(let name):
            guard let value = variables[name] else { throw PredicateEvaluationError("variable $\(name) is not bound") }
            return value
        case .keyPath(let path):
            return ConstantValue(any: KeyValueLookup.value(of: evaluatedObject, forKeyPath: path))
        case .keyPathOnExpression(let base, let path):
            return ConstantValue(any: KeyValueLookup.value(of: try value(of: base).anyValue, forKeyPath: path))
        case .function(let name, let arguments):
            var values: [ConstantValue] = []
            for argument in arguments { values.append(try value(of: argument)) }
            return try FunctionEvaluation.call(name, values)
        case .customFunction(let receiver, let selector, let arguments):
            var values: [ConstantValue] = []
            for argument in arguments { values.append(try value(of: argument)) }
            return try FunctionEvaluation.callMethod(selector, on: try value(of: receiver), values)
        case .index(let collection, let selector):
            return try index(try value(of: collection), selector)
        case .aggregate(let elements):
            var values: [ConstantValue] = []
            for element in elements { values.append(try value(of: element)) }
            return .array(values)
        case .setOperation(let left, let operation, let right):
            return try setOperation(try value(of: left), operation, try value(of: right))
        case .subquery(let collection, let variable, let predicate):
            var matching: [ConstantValue] = []
            var inner = self
            for element in ValueComparison.elements(of: try value(of: collection)) {
                inner.variables[variable] = element
                if try inner.evaluate(predicate) { matching.append(element) }
            }
            return .array(matching)
        case .conditional(let condition, let whenTrue, let whenFalse):
            return try value(of: evaluate(condition) ? whenTrue : whenFalse)
        case .anyKey:
            throw PredicateEvaluationError("ANYKEY cannot be evaluated in memory")
        case .fetch(let request, let context, let countOnly):
            let contextValue = try value(of: context)
            guard case .object(let object) = contextValue, let fetchContext = object.value as? any ExpressionFetchContext else {
                throw PredicateEvaluationError("FETCH needs a managed object context, got \(contextValue.predicateFormat)")
            }
            let requestValue = try value(of: request).anyValue
            do {
                return ConstantValue(any: try fetchContext.executeFetchExpression(request: requestValue, countOnly: countOnly))
            } catch let error as PredicateEvaluationError {
                throw error
            } catch {
                throw PredicateEvaluationError("FETCH failed: \(error)")
            }
        }
    }

    private func index(_ base: ConstantValue, _ selector: IndexSelector) throws(PredicateEvaluationError) -> ConstantValue {
        if case .null = base { return .null }
        if case .dictionary(let entries) = base {
            switch selector {
            case .size: return .integer(Int64(entries.count))
            case .at(let keyExpression):
                guard case .string(let key) = try value(of: keyExpression) else {
                    throw PredicateEvaluationError("a dictionary index must be a string key")
                }
                return entries[key] ?? .null
            case .first, .last: throw PredicateEvaluationError("FIRST and LAST need an array, not a dictionary")
            }
        }
        let elements = ValueComparison.elements(of: base)
        switch selector {
        case .first: return elements.first ?? .null
        case .last: return elements.last ?? .null
        case .size: return .integer(Int64(elements.count))
        case .at(let indexExpression):
            let position = try value(of: indexExpression)
            guard case .integer(let offset)? = position.numericValue else {
                throw PredicateEvaluationError("an array index must be an integer, got \(position.predicateFormat)")
            }
            guard offset >= 0, offset < elements.count else {
                throw PredicateEvaluationError("index \(offset) is beyond the bounds 0..<\(elements.count)")
            }
            return elements[Int(offset)]
        }
    }

    private func setOperation(
        _ left: ConstantValue, _ operation: SetOperation, _ right: ConstantValue
    ) throws(PredicateEvaluationError) -> ConstantValue {
        let leftElements = ValueComparison.elements(of: left)
        let rightSet = Set(ValueComparison.elements(of: right))
        var seen = Set<ConstantValue>()
        var result: [ConstantValue] = []
        let candidates: [ConstantValue]
        switch operation {
        case .union: candidates = leftElements + ValueComparison.elements(of: right)
        case .intersect: candidates = leftElements.filter { rightSet.contains($0) }
        case .minus: candidates = leftElements.filter { !rightSet.contains($0) }
        }
        for element in candidates where seen.insert(element).inserted { result.append(element) }
        return .array(result)
    }
}
