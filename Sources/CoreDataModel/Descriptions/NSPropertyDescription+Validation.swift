import Foundation
import Predicates

// Apple's validation predicates: each is evaluated with the property's value as `SELF` (`SELF MATCHES '[a-z]+'`,
// `length >= 3`), and a value that fails one is reported with the warning at the same index.

extension NSPropertyDescription {
    /// The validation predicates, in order (Apple's `validationPredicates`): those set in code, and those a model
    /// file gives (Xcode writes an attribute's minimum, maximum and pattern as predicates).
    public var validationPredicates: [Predicates.NSPredicate] { validationRules.map(\.predicate) }

    /// The warnings of the validation predicates, at the same indexes (Apple's `validationWarnings`): a `String`
    /// message, or an `NSNumber` holding one of Core Data's validation error codes (what Xcode writes for bounds).
    public var validationWarnings: [Any] { validationRules.map(\.warning.objectValue) }

    /// Replaces the validation predicates and their warnings, as Apple's method does: the warning at an index is
    /// the message of a validation error for the predicate at that index. A predicate without a warning (nil or
    /// too short an array) reports Core Data's generic validation error (`NSManagedObjectValidationError`);
    /// warnings past the last predicate are ignored.
    public func setValidationPredicates(_ validationPredicates: [Predicates.NSPredicate]?,
                                        withValidationWarnings validationWarnings: [String]?) {
        let warnings = validationWarnings ?? []
        validationRules = (validationPredicates ?? []).enumerated().map { index, predicate in
            ValidationRule(predicate: predicate,
                           warning: index < warnings.count ? .message(warnings[index]) : .errorCode(ValidationRuleBuilder.Code.validation))
        }
    }
}

/// One validation predicate and the warning reported when a value fails it.
public struct ValidationRule: Sendable, Hashable {
    /// The predicate a valid value satisfies, evaluated with the value as `SELF`.
    public var predicate: Predicates.NSPredicate
    public var warning: ValidationWarning

    public init(predicate: Predicates.NSPredicate, warning: ValidationWarning) {
        self.predicate = predicate
        self.warning = warning
    }

    /// A rule whose predicate is parsed from `predicateFormat`; throws the parse error.
    public init(predicateFormat: String, warning: ValidationWarning) throws(PredicateSyntaxError) {
        self.init(predicate: try Predicates.NSPredicate(parsing: predicateFormat), warning: warning)
    }

    /// The predicate's canonical format string.
    public var predicateFormat: String { predicate.predicateFormat }
}

/// What a failed validation predicate reports: one of Core Data's validation error codes, or a custom message.
public enum ValidationWarning: Sendable, Hashable {
    case errorCode(Int)
    case message(String)

    /// The warning as Apple's `validationWarnings` holds it: the message, or the code as an `NSNumber`.
    public var objectValue: Any {
        switch self {
        case .errorCode(let code): NSNumber(value: code)
        case .message(let text): text
        }
    }
}
