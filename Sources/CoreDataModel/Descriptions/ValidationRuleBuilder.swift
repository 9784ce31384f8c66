import Foundation
import Predicates

/// Turns an attribute's minimum, maximum and pattern (as Xcode writes them) into validation predicates with
/// Core Data's error codes, the form a compiled model stores them in.
package enum ValidationRuleBuilder {
    /// Core Data's validation error codes (CoreDataErrors.h).
    package enum Code {
        package static let validation = 1550
        package static let numberTooLarge = 1610
        package static let numberTooSmall = 1620
        package static let dateTooLate = 1630
        package static let dateTooSoon = 1640
        package static let stringTooLong = 1660
        package static let stringTooShort = 1670
        package static let stringPatternMismatch = 1680
    }

    package struct InvalidBound: Error, CustomStringConvertible {
        package var description: String
    }

    package static func rules(for attribute: NSAttributeDescription) -> Result<[ValidationRule], InvalidBound> {
        var rules: [Rule] = []
        let minimum = attribute.minimumValueString, maximum = attribute.maximumValueString
        switch attribute.attributeType {
        case .stringAttributeType, .binaryDataAttributeType:
            if let minimum {
                guard let length = Int(minimum), length >= 0 else { return .failure(bound("minimum length", minimum)) }
                rules.append(.init(predicateFormat: "length >= \(length)", warning: .errorCode(Code.stringTooShort)))
            }
            if let maximum {
                guard let length = Int(maximum), length >= 0 else { return .failure(bound("maximum length", maximum)) }
                rules.append(.init(predicateFormat: "length <= \(length)", warning: .errorCode(Code.stringTooLong)))
            }
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .decimalAttributeType,
             .doubleAttributeType, .floatAttributeType:
            if let minimum {
                guard let value = Double(minimum) else { return .failure(bound("minimum value", minimum)) }
                rules.append(.init(predicateFormat: "SELF >= \(format(value))", warning: .errorCode(Code.numberTooSmall)))
            }
            if let maximum {
                guard let value = Double(maximum) else { return .failure(bound("maximum value", maximum)) }
                rules.append(.init(predicateFormat: "SELF <= \(format(value))", warning: .errorCode(Code.numberTooLarge)))
            }
        case .dateAttributeType:
            if let minimum {
                guard let value = Double(minimum) else { return .failure(bound("earliest date", minimum)) }
                rules.append(.init(predicateFormat: "SELF >= CAST(\(format(value)), \"NSDate\")",
                                   warning: .errorCode(Code.dateTooSoon)))
            }
            if let maximum {
                guard let value = Double(maximum) else { return .failure(bound("latest date", maximum)) }
                rules.append(.init(predicateFormat: "SELF <= CAST(\(format(value)), \"NSDate\")",
                                   warning: .errorCode(Code.dateTooLate)))
            }
        default:
            break
        }
        if let pattern = attribute.regularExpressionString, !pattern.isEmpty {
            rules.append(.init(predicateFormat: "SELF MATCHES \(quoted(pattern))",
                               warning: .errorCode(Code.stringPatternMismatch)))
        }
        var built: [ValidationRule] = []
        for rule in rules {
            do {
                built.append(try ValidationRule(predicateFormat: rule.predicateFormat, warning: rule.warning))
            } catch {
                return .failure(InvalidBound(description: "the validation predicate \(rule.predicateFormat) does not parse: \(error)"))
            }
        }
        return .success(built)
    }

    /// A rule as its format string, before it is parsed.
    private struct Rule {
        var predicateFormat: String
        var warning: ValidationWarning
    }

    /// The error codes of the predicates `rules(for:)` writes.
    private static let boundCodes: Set<Int> = [Code.numberTooLarge, Code.numberTooSmall, Code.dateTooLate, Code.dateTooSoon,
                                               Code.stringTooLong, Code.stringTooShort, Code.stringPatternMismatch]

    private static func bound(_ what: String, _ text: String) -> InvalidBound {
        InvalidBound(description: "the \(what) \"\(text)\" is not a number")
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A double-quoted predicate string literal with quotes and backslashes escaped.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension ValidationRuleBuilder {
    /// The minimum, maximum and pattern that validation predicates of the forms `rules(for:)` writes express,
    /// so a model read back from a compiled archive validates as the Xcode model did. Only a predicate whose
    /// warning is its bound's error code is one: the same predicate with a message of its own was set in code, and
    /// stays a predicate reported with that message.
    package static func applyBounds(from rules: [ValidationRule], to attribute: NSAttributeDescription) {
        for rule in rules {
            guard case .errorCode(let code) = rule.warning, boundCodes.contains(code),
                  case .comparison(let comparison) = rule.predicate.predicateNode else { continue }
            let isLength = comparison.left == .keyPath("length")
            guard isLength || comparison.left == .evaluatedObject else { continue }
            let bound: String?
            switch comparison.right {
            case .constant(.integer(let value)): bound = String(value)
            case .constant(.double(let value)): bound = value.rounded() == value ? String(Int64(value)) : String(value)
            case .constant(.date(let date)): bound = String(date.timeIntervalSinceReferenceDate)
            case .constant(.string(let pattern)) where comparison.operatorType == .matches:
                attribute.regularExpressionString = pattern
                continue
            default: bound = nil
            }
            guard let bound else { continue }
            switch comparison.operatorType {
            case .greaterThanOrEqualTo: attribute.minimumValueString = bound
            case .lessThanOrEqualTo: attribute.maximumValueString = bound
            default: continue
            }
        }
    }
}
