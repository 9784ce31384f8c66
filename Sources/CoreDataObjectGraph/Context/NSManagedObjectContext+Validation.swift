import CoreDataModel
import Foundation
import Predicates

extension NSManagedObject {
    /// Deny delete rules: a deleted object may not leave destinations behind through a Deny relationship.
    func validateDenyRules() throws {
        var errors: [CoreDataError] = []
        for relationship in slots.persistentRelationships where relationship.deleteRule == .denyDeleteRule {
            let remaining = objectIDs(forRelationshipNamed: relationship.name).filter { id in
                !(managedObjectContext?.registeredObject(for: id)?.isDeleted ?? false)
            }
            if !remaining.isEmpty {
                errors.append(validationError(.validationRelationshipDeniedDelete, relationship.name,
                                              "cannot be deleted while \(relationship.name) holds \(remaining.count) object(s) (delete rule Deny)"))
            }
        }
        try Self.throwIfAny(errors)
    }

    /// Checks every stored attribute and relationship against the model: optionality, bounds, patterns, counts.
    func validateStoredProperties() throws {
        var errors: [CoreDataError] = []
        for property in slots.validatedProperties {
            if let attribute = property as? NSAttributeDescription {
                errors += validate(attribute)
            } else if let relationship = property as? NSRelationshipDescription {
                errors += validate(relationship)
            }
        }
        try Self.throwIfAny(errors)
    }

    private func validate(_ attribute: NSAttributeDescription) -> [CoreDataError] {
        let value = attributeValue(forKey: attribute.name)
        if value == nil, let index = slots.index(of: attribute.name), case .externalData? = storedValues?[index] { return [] }
        return validate(attribute, value: value)
    }

    /// The model's checks of `attribute` on `value` (nil when the attribute has none).
    private func validate(_ attribute: NSAttributeDescription, value: AttributeValue?) -> [CoreDataError] {
        guard let value else {
            return attribute.isOptional ? [] : [validationError(.validationMissingMandatoryProperty, attribute.name, "is required")]
        }
        var errors: [CoreDataError] = []
        let minimum = attribute.minimumValueString.flatMap(Double.init), maximum = attribute.maximumValueString.flatMap(Double.init)
        switch value {
        case .string(let string):
            let length = Double(string.count)
            if let minimum, length < minimum { errors.append(validationError(.validationStringTooShort, attribute.name, "is shorter than \(Int(minimum)) characters")) }
            if let maximum, length > maximum { errors.append(validationError(.validationStringTooLong, attribute.name, "is longer than \(Int(maximum)) characters")) }
            if let pattern = attribute.regularExpressionString, !pattern.isEmpty {
                let matches = (try? NSRegularExpression(pattern: "^(?:\(pattern))$"))
                    .map { $0.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil } ?? false
                if !matches { errors.append(validationError(.validationStringPatternMatching, attribute.name, "does not match \(pattern)")) }
            }
        case .integer, .double, .float, .decimal:
            let number: Double
            switch value {
            case .integer(let v): number = Double(v)
            case .double(let v): number = v
            case .float(let v): number = Double(v)
            case .decimal(let v): number = NSDecimalNumber(decimal: v).doubleValue
            default: number = 0
            }
            if let minimum, number < minimum { errors.append(validationError(.validationNumberTooSmall, attribute.name, "is less than \(attribute.minimumValueString!)")) }
            if let maximum, number > maximum { errors.append(validationError(.validationNumberTooLarge, attribute.name, "is greater than \(attribute.maximumValueString!)")) }
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            if let minimum, seconds < minimum { errors.append(validationError(.validationDateTooSoon, attribute.name, "is earlier than allowed")) }
            if let maximum, seconds > maximum { errors.append(validationError(.validationDateTooLate, attribute.name, "is later than allowed")) }
        case .data(let data):
            if let minimum, Double(data.count) < minimum { errors.append(validationError(.validationStringTooShort, attribute.name, "is shorter than \(Int(minimum)) bytes")) }
            if let maximum, Double(data.count) > maximum { errors.append(validationError(.validationStringTooLong, attribute.name, "is longer than \(Int(maximum)) bytes")) }
        default:
            break
        }
        errors += validatePredicates(of: attribute, value: value.objectValue)
        for index in errors.indices { errors[index].validationValue = value.objectValue }
        return errors
    }

    /// Evaluates the validation predicates of `property` with `value` as `SELF`, as Apple's validation does, and
    /// reports each that fails with its warning: the warning's code (Xcode writes bounds that way) or
    /// `NSManagedObjectValidationError` with the warning as the message. Predicates that express the attribute's
    /// minimum, maximum or pattern are checked by the bounds above, with their messages, and skipped here.
    private func validatePredicates(of property: NSPropertyDescription, value: Any) -> [CoreDataError] {
        guard !property.validationRules.isEmpty else { return [] }
        let attribute = property as? NSAttributeDescription
        var errors: [CoreDataError] = []
        for rule in property.validationRules {
            if case .errorCode(let code) = rule.warning, let attribute, attribute.checksBound(withErrorCode: code) { continue }
            let failure: String
            do {
                if try rule.predicate.evaluateOrThrow(with: value) { continue }
                failure = "does not satisfy the validation predicate \(rule.predicateFormat)"
            } catch {
                failure = "cannot be checked against the validation predicate \(rule.predicateFormat): \(error.reason)"
            }
            var error: CoreDataError
            switch rule.warning {
            case .errorCode(let code):
                error = validationError(CoreDataError.Code(rawValue: code), property.name, failure)
            case .message(let text):
                error = validationError(.managedObjectValidation, property.name, failure)
                // Apple's error describes itself with the warning.
                error.message = text
            }
            error.validationPredicate = rule.predicate
            errors.append(error)
        }
        return errors
    }

    private func validate(_ relationship: NSRelationshipDescription) -> [CoreDataError] {
        let errors = validateCounts(of: relationship)
        guard errors.isEmpty, !relationship.validationRules.isEmpty, let value = value(forKey: relationship.name) else { return errors }
        var failures = validatePredicates(of: relationship, value: value)
        for index in failures.indices { failures[index].validationValue = value }
        return failures
    }

    private func validateCounts(of relationship: NSRelationshipDescription) -> [CoreDataError] {
        if !relationship.isToMany {
            return objectIDForToOne(relationship.name) == nil && !relationship.isOptional
                ? [validationError(.validationMissingMandatoryProperty, relationship.name, "is required")] : []
        }
        let count = objectIDs(forRelationshipNamed: relationship.name).count
        if count == 0 && relationship.isOptional { return [] }
        // Only the declared counts apply, as in Apple's framework: a non-optional to-many relationship whose minimum
        // count is 0 may be empty.
        if count < relationship.minCount {
            return [validationError(.validationRelationshipLacksMinimumCount, relationship.name, "holds \(count) object(s), fewer than \(relationship.minCount)")]
        }
        if relationship.maxCount > 0 && count > relationship.maxCount {
            return [validationError(.validationRelationshipExceedsMaximumCount, relationship.name, "holds \(count) object(s), more than \(relationship.maxCount)")]
        }
        return []
    }

    /// Checks `value` for the property `key` against the model (type, optionality, bounds, pattern) without setting
    /// it, as Apple's `validateValue(_:forKey:)`; throws the validation error Apple's would (`NSError` codes and
    /// keys). The value is not coerced, so it is left as given.
    public func validateValue(_ value: inout AnyObject?, forKey key: String) throws {
        var any: Any? = value
        try validateValue(&any, forKey: key)
    }

    /// `validateValue(_:forKey:)` for a Swift value.
    public func validateValue(_ value: inout Any?, forKey key: String) throws {
        guard let property = entity.propertiesByName[key] else {
            throw validationError(.managedObjectValidation, key, "is not a property of the entity")
        }
        var errors: [CoreDataError] = []
        if let attribute = property as? NSAttributeDescription {
            let stored: StoredValue
            do {
                if attribute.attributeType == .transformableAttributeType, let value, !(value is NSNull) {
                    // Any value its transformer takes; what the model constrains of it is its presence.
                    stored = .attribute(.data(value as? Data ?? Data()))
                } else {
                    stored = try StoredValue(assigning: value, to: attribute)
                }
            } catch {
                var failure = validationError(.managedObjectValidation, key, "\(error)")
                failure.validationValue = value
                throw failure
            }
            errors = validate(attribute, value: stored.attributeValue)
        } else if let relationship = property as? NSRelationshipDescription {
            if value == nil || value is NSNull {
                if !relationship.isToMany && !relationship.isOptional {
                    errors = [validationError(.validationMissingMandatoryProperty, key, "is required")]
                }
            } else if let value {
                errors = validatePredicates(of: relationship, value: value)
            }
        }
        for index in errors.indices { errors[index].validationValue = value }
        try Self.throwIfAny(errors)
    }

    func validationError(_ code: CoreDataError.Code, _ key: String, _ problem: String) -> CoreDataError {
        var error = CoreDataError(code, "\(entity.entityName).\(key) \(problem) (\(objectID.uriRepresentation().absoluteString))",
                                  affectedObjectIDs: [objectID])
        error.validationKey = key
        error.validationObject = self
        return error
    }

    static func throwIfAny(_ errors: [CoreDataError]) throws {
        guard !errors.isEmpty else { return }
        if errors.count == 1 { throw errors[0] }
        throw multipleErrors(errors)
    }

    static func multipleErrors(_ errors: [CoreDataError]) -> CoreDataError {
        var error = CoreDataError(.validationMultipleErrors, "\(errors.count) validation errors: " + errors.map(\.message).joined(separator: "; "),
                                  affectedObjectIDs: errors.flatMap(\.affectedObjectIDs))
        error.detailedErrors = errors
        return error
    }
}

extension NSAttributeDescription {
    /// Whether any value could fail validation: a mandatory attribute, bounds or a pattern. An optional attribute
    /// without them accepts every value of its type, so saving skips reading it (most attributes of most models).
    var hasValidationConstraints: Bool {
        !isOptional || minimumValueString != nil || maximumValueString != nil || !(regularExpressionString ?? "").isEmpty
            || !validationRules.isEmpty
    }

    /// Whether `validate(_:value:)` checks a bound (minimum, maximum, pattern) of this attribute that reports
    /// `code`: a validation predicate with that code expresses the same bound (Xcode writes them so) and is not
    /// evaluated a second time.
    func checksBound(withErrorCode code: Int) -> Bool {
        let numeric: Bool
        switch attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .decimalAttributeType,
             .doubleAttributeType, .floatAttributeType: numeric = true
        default: numeric = false
        }
        let sized = attributeType == .stringAttributeType || attributeType == .binaryDataAttributeType
        let dated = attributeType == .dateAttributeType
        switch code {
        case NSValidationStringTooShortError: return sized && minimumValueString != nil
        case NSValidationStringTooLongError: return sized && maximumValueString != nil
        case NSValidationNumberTooSmallError: return numeric && minimumValueString != nil
        case NSValidationNumberTooLargeError: return numeric && maximumValueString != nil
        case NSValidationDateTooSoonError: return dated && minimumValueString != nil
        case NSValidationDateTooLateError: return dated && maximumValueString != nil
        case NSValidationStringPatternMatchingError: return attributeType == .stringAttributeType && !(regularExpressionString ?? "").isEmpty
        default: return false
        }
    }
}

extension NSRelationshipDescription {
    /// Whether any destination count could fail validation: a mandatory relationship or bounds on a to-many's count.
    var hasValidationConstraints: Bool {
        !isOptional || (isToMany && (minCount > 0 || maxCount > 0)) || !validationRules.isEmpty
    }
}
