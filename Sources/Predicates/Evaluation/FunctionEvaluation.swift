import Foundation
import KeyValueCoding

/// The built-in functions of ``FunctionCatalog`` applied to evaluated arguments.
enum FunctionEvaluation {
    static func call(_ name: String, _ arguments: [ConstantValue]) throws(PredicateEvaluationError) -> ConstantValue {
        // Trees built in code (NSExpression(forFunction:arguments:)) are not checked by the parser.
        guard FunctionCatalog.accepts(name, argumentCount: arguments.count) else {
            throw PredicateEvaluationError("function \(name) does not take \(arguments.count) arguments, or is unknown")
        }
        switch name {
        case "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:":
            return try aggregate(name, collection(arguments))
        case "now": return .date(Date())
        case "random": return .double(Double.random(in: 0..<1))
        case "random:":
            let elements = ValueComparison.elements(of: arguments[0])
            return elements.randomElement() ?? .null
        case "randomn:":
            guard case .integer(let bound)? = arguments[0].numericValue, bound > 0 else { return .null }
            return .integer(Int64.random(in: 0..<bound))
        case "uppercase:", "lowercase:", "canonical:", "length:":
            guard case .string(let text) = arguments[0] else { return .null }
            switch name {
            case "length:": return .integer(Int64(text.utf16.count))
            case "uppercase:": return .string(text.uppercased())
            case "lowercase:": return .string(text.lowercased())
            default:
                // Core Data's canonical form for derived search attributes: case and diacritics folded.
                return .string(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased())
            }
        case "noindex:": return arguments[0]
        case "castObject:toType:": return try cast(arguments[0], to: arguments[1])
        case "objectFrom:withIndex:":
            return try element(of: arguments[0], at: arguments[1])
        case "distanceToLocation:fromLocation:":
            throw PredicateEvaluationError("distanceToLocation:fromLocation: needs CoreLocation, absent on Linux")
        default:
            return try arithmetic(name, arguments)
        }
    }

    /// `objectFrom:withIndex:` built in code: an integer position, or Apple's `FIRST`, `LAST`, `SIZE` markers.
    private static func element(of collection: ConstantValue, at index: ConstantValue) throws(PredicateEvaluationError) -> ConstantValue {
        let elements = ValueComparison.elements(of: collection)
        switch index {
        case .string("FIRST"): return elements.first ?? .null
        case .string("LAST"): return elements.last ?? .null
        case .string("SIZE"): return .integer(Int64(elements.count))
        default:
            guard case .integer(let offset)? = index.numericValue, offset >= 0, offset < elements.count else {
                throw PredicateEvaluationError("index \(index.predicateFormat) is not within 0..<\(elements.count)")
            }
            return elements[Int(offset)]
        }
    }

    /// A single collection argument, or the arguments themselves as the collection.
    private static func collection(_ arguments: [ConstantValue]) -> [ConstantValue] {
        if arguments.count == 1 { return ValueComparison.elements(of: arguments[0]) }
        return arguments
    }

    private static func aggregate(_ name: String, _ values: [ConstantValue]) throws(PredicateEvaluationError) -> ConstantValue {
        if name == "count:" { return .integer(Int64(values.count)) }
        if name == "min:" || name == "max:" {
            let present = values.filter { !$0.isNull }
            let wanted: ComparisonResult = name == "min:" ? .orderedAscending : .orderedDescending
            return present.dropFirst().reduce(present.first ?? .null) { best, candidate in
                ValueComparison.order(candidate, best, options: []) == wanted ? candidate : best
            }
        }
        let numbers = values.compactMap(\.numericValue)
        if name == "sum:" { return ConstantValue(any: NumericValue.sum(numbers).anyValue) }
        guard !numbers.isEmpty else { return .null }
        let doubles = numbers.map(\.doubleValue)
        let mean = doubles.reduce(0, +) / Double(doubles.count)
        switch name {
        case "average:": return .double(mean)
        case "median:":
            let sorted = doubles.sorted()
            let middle = sorted.count / 2
            return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
        case "mode:":
            var counts: [Double: Int] = [:]
            for value in doubles { counts[value, default: 0] += 1 }
            let highest = counts.values.max() ?? 0
            return .array(counts.filter { $0.value == highest }.keys.sorted().map { .double($0) })
        default:
            let variance = doubles.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(doubles.count)
            return .double(variance.squareRoot())
        }
    }

    private static func arithmetic(_ name: String, _ arguments: [ConstantValue]) throws(PredicateEvaluationError) -> ConstantValue {
        let numbers = arguments.map(\.numericValue)
        guard !numbers.contains(where: { $0 == nil }) else { return .null }
        let values = numbers.compactMap { $0 }
        if values.count == 1 {
            let value = values[0]
            switch name {
            case "abs:":
                if case .integer(let v) = value, v != Int64.min { return .integer(abs(v)) }
                return .double(abs(value.doubleValue))
            case "onesComplement:":
                guard case .integer(let v) = value else { throw PredicateEvaluationError("onesComplement: needs an integer") }
                return .integer(~v)
            default:
                guard let function = unaryFunctions[name] else { throw PredicateEvaluationError("unknown function \(name)") }
                return .double(function(value.doubleValue))
            }
        }
        guard values.count == 2 else { throw PredicateEvaluationError("unknown function \(name)") }
        let (a, b) = (values[0], values[1])
        if case .integer(let x) = a, case .integer(let y) = b, let result = try integerArithmetic(name, x, y) {
            return .integer(result)
        }
        let x = a.doubleValue, y = b.doubleValue
        switch name {
        case "add:to:": return .double(x + y)
        case "from:subtract:": return .double(x - y)
        case "multiply:by:": return .double(x * y)
        case "divide:by:": return .double(x / y)
        case "modulus:by:": return .double(fmod(x, y))
        case "raise:toPower:": return .double(pow(x, y))
        default: throw PredicateEvaluationError("\(name) needs integer arguments")
        }
    }

    /// Exact integer results where they exist; nil to fall back to floating point (overflow, division).
    private static func integerArithmetic(_ name: String, _ x: Int64, _ y: Int64) throws(PredicateEvaluationError) -> Int64? {
        func exact(_ result: (partialValue: Int64, overflow: Bool)) -> Int64? { result.overflow ? nil : result.partialValue }
        switch name {
        case "add:to:": return exact(x.addingReportingOverflow(y))
        case "from:subtract:": return exact(x.subtractingReportingOverflow(y))
        case "multiply:by:": return exact(x.multipliedReportingOverflow(by: y))
        case "modulus:by:":
            guard y != 0 else { throw PredicateEvaluationError("modulus:by: by zero") }
            return exact(x.remainderReportingOverflow(dividingBy: y))
        case "bitwiseAnd:with:": return x & y
        case "bitwiseOr:with:": return x | y
        case "bitwiseXor:with:": return x ^ y
        case "leftshift:by:": return x << y
        case "rightshift:by:": return x >> y
        default: return nil
        }
    }

    private static let unaryFunctions: [String: @Sendable (Double) -> Double] = [
        "sqrt:": { $0.squareRoot() }, "log:": { log10($0) }, "ln:": { log($0) }, "exp:": { exp($0) },
        "floor:": { $0.rounded(.down) }, "ceiling:": { $0.rounded(.up) }, "trunc:": { $0.rounded(.towardZero) },
    ]

    /// `CAST(x, "NSDate" | "NSNumber" | "NSString")`.
    static func cast(_ value: ConstantValue, to type: ConstantValue) throws(PredicateEvaluationError) -> ConstantValue {
        guard case .string(let typeName) = type else { throw PredicateEvaluationError("CAST needs a type name string") }
        if case .null = value { return .null }
        switch typeName {
        case "NSDate", "Date":
            if case .date = value { return value }
            if let number = value.numericValue { return .date(Date(timeIntervalSinceReferenceDate: number.doubleValue)) }
        case "NSNumber", "NSDecimalNumber":
            if value.numericValue != nil { return value }
            if case .date(let date) = value { return .double(date.timeIntervalSinceReferenceDate) }
            if case .string(let text) = value {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if let integer = Int64(trimmed) { return .integer(integer) }
                if let double = Double(trimmed) { return .double(double) }
                return .null
            }
        case "NSString", "String":
            if case .string = value { return value }
            if value.numericValue != nil { return .string(value.predicateFormat) }
        default:
            throw PredicateEvaluationError("CAST to \(typeName) is not supported (NSDate, NSNumber, NSString are)")
        }
        throw PredicateEvaluationError("cannot CAST \(value.predicateFormat) to \(typeName)")
    }

    /// `FUNCTION(receiver, "selector", …)` for the few selectors with a meaning without the Objective-C runtime.
    static func callMethod(
        _ selector: String, on receiver: ConstantValue, _ arguments: [ConstantValue]
    ) throws(PredicateEvaluationError) -> ConstantValue {
        if case .object(let object) = receiver, let target = object.value as? any ExpressionFunctionReceiver {
            do {
                return ConstantValue(any: try target.evaluateFunction(selector, arguments: arguments.map(\.anyValue)))
            } catch let error as PredicateEvaluationError {
                throw error
            } catch {
                throw PredicateEvaluationError("FUNCTION '\(selector)' on \(type(of: target)) failed: \(error)")
            }
        }
        switch (selector, receiver) {
        case ("valueForKeyPath:", _), ("valueForKey:", _):
            guard arguments.count == 1, case .string(let path) = arguments[0] else {
                throw PredicateEvaluationError("FUNCTION '\(selector)' takes one key path string")
            }
            return ConstantValue(any: KeyValueLookup.value(of: receiver.anyValue, forKeyPath: path))
        case ("lowercaseString", .string(let text)): return .string(text.lowercased())
        case ("uppercaseString", .string(let text)): return .string(text.uppercased())
        case ("length", .string(let text)): return .integer(Int64(text.utf16.count))
        case ("count", _): return .integer(Int64(ValueComparison.elements(of: receiver).count))
        default:
            throw PredicateEvaluationError("FUNCTION selector '\(selector)' cannot be evaluated on Linux")
        }
    }
}
