import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess

/// Validation failures as the browser shows them: per object and field, naming the object by its label (never by
/// its `x-coredata:` address), with the model's rule for the field.
struct ValidationFailure: Equatable {
    var objectID: NSManagedObjectID
    var key: String?
    /// What is wrong, without the entity and key (`is greater than 1440`).
    var problem: String
    /// The model's rule for the field (`model: 1…1440`), when it has one.
    var rule: String?

    /// `Recipe p5.minutes is greater than 1440 (model: 1…1440)`.
    var message: String {
        ObjectIDText.short(objectID) + (key.map { "." + $0 } ?? "") + " " + problem + (rule.map { " (\($0))" } ?? "")
    }
}

enum ValidationReport {
    /// The failures an error carries, one per field; empty for an error that is not a validation error.
    static func failures(in error: any Error, model: NSManagedObjectModel? = nil) -> [ValidationFailure] {
        guard let error = error as? CoreDataError else { return [] }
        if error.code == .validationMultipleErrors { return error.detailedErrors.flatMap { failures(in: $0, model: model) } }
        guard (1550..<1700).contains(error.code.rawValue), let id = error.affectedObjectIDs.first else { return [] }
        let entity = id.entity
        var problem = ObjectIDText.replacingAddresses(in: error.message)
        let prefix = entity.entityName + "." + (error.validationKey ?? "") + " "
        if problem.hasPrefix(prefix) { problem.removeFirst(prefix.count) }
        if let range = problem.range(of: " (" + ObjectIDText.short(id) + ")", options: .backwards) { problem.removeSubrange(range) }
        let property = error.validationKey.flatMap { entity.propertiesByName[$0] }
        return [ValidationFailure(objectID: id, key: error.validationKey, problem: problem, rule: property.flatMap(rule))]
    }

    /// The model's constraints on `property`, as one phrase: `model: required, 1…1440`.
    static func rule(for property: NSPropertyDescription) -> String? {
        var parts: [String] = []
        if !property.isOptional { parts.append("required") }
        if let attribute = property as? NSAttributeDescription {
            let unit = attribute.attributeType == .stringAttributeType ? " characters"
                : attribute.attributeType == .binaryDataAttributeType ? " bytes" : ""
            switch (attribute.minimumValueString, attribute.maximumValueString) {
            case (let low?, let high?): parts.append("\(low)…\(high)\(unit)")
            case (let low?, nil): parts.append("at least \(low)\(unit)")
            case (nil, let high?): parts.append("at most \(high)\(unit)")
            case (nil, nil): break
            }
            if let pattern = attribute.regularExpressionString, !pattern.isEmpty { parts.append("matching \(pattern)") }
        } else if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            if relationship.minCount > 0 { parts.append("at least \(relationship.minCount) objects") }
            if relationship.maxCount > 0 { parts.append("at most \(relationship.maxCount) objects") }
        }
        return parts.isEmpty ? nil : "model: " + parts.joined(separator: ", ")
    }

    /// What the message line says for an error: validation failures listed by label, any other error with its
    /// object addresses replaced by labels.
    static func message(for error: any Error) -> String {
        let failures = failures(in: error)
        if failures.isEmpty {
            if let error = error as? CoreDataError { return ObjectIDText.replacingAddresses(in: error.message) }
            return (error as? StoreAccessError)?.message ?? ObjectIDText.replacingAddresses(in: String(describing: error))
        }
        return message(for: failures)
    }

    static func message(for failures: [ValidationFailure]) -> String {
        let count = failures.count
        return "\(count) validation failure\(count == 1 ? "" : "s"): " + failures.map(\.message).joined(separator: "; ")
    }
}
