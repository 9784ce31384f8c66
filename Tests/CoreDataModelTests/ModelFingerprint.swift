import CoreDataModel
import Foundation

/// Everything a model says, one line per fact in a fixed order, so that two loads of a model (from its Xcode source
/// and from its compiled form) compare as text and a difference names the fact that was lost.
enum ModelFingerprint {
    static func lines(_ model: NSManagedObjectModel) -> [String] {
        var lines: [String] = []
        for (name, members) in model.configurationsByName.sorted(by: { $0.key < $1.key }) {
            lines.append("configuration \(name): \(members.sorted())")
        }
        for (name, template) in model.fetchRequestTemplatesByName.sorted(by: { $0.key < $1.key }) {
            lines.append("fetch request \(name): \(template)")
        }
        lines.append("version identifiers \(model.versionIdentifierStrings.sorted())")
        for (name, composite) in model.compositesByName.sorted(by: { $0.key < $1.key }) {
            lines.append("composite \(name): \(composite.elements)")
        }
        for (name, entity) in model.entitiesByName.sorted(by: { $0.key < $1.key }) {
            let prefix = "entity \(name)"
            lines.append("\(prefix): class \(entity.representedClassName ?? "-") abstract \(entity.isAbstract) "
                + "super \(entity.superentityName ?? "-") hash modifier \(entity.versionHashModifier ?? "-") "
                + "renaming \(entity.renamingIdentifier ?? "-") user info \(entity.userInfoStrings.sorted { $0.key < $1.key })")
            lines.append("\(prefix): constraints \(entity.uniquenessConstraintNames) compound indexes \(entity.compoundIndexes)")
            for index in entity.indexes { lines.append("\(prefix): index \(index)") }
            for property in entity.ownProperties.sorted(by: { $0.name < $1.name }) {
                lines.append("\(prefix).\(property.name): " + describe(property))
            }
            lines.append("\(prefix): version hash \(entity.versionHash.base64EncodedString())")
        }
        return lines
    }

    private static func describe(_ property: NSPropertyDescription) -> String {
        var text = "\(type(of: property)) optional \(property.isOptional) transient \(property.isTransient) "
            + "read-only \(property.isReadOnly) indexed \(property.isIndexed) spotlight \(property.isIndexedBySpotlight) "
            + "external record \(property.isStoredInExternalRecord) hash modifier \(property.versionHashModifier ?? "-") "
            + "renaming \(property.renamingIdentifier ?? "-") user info \(property.userInfoStrings.sorted { $0.key < $1.key }) "
            + "rules \(property.validationRules)"
        switch property {
        case let derived as NSDerivedAttributeDescription:
            text += " derived \(derived.derivationExpressionFormat) filter \(derived.filteringPredicateFormat ?? "-")"
        default: break
        }
        switch property {
        case let attribute as NSAttributeDescription:
            text += " type \(attribute.attributeType.rawValue) default \(attribute.defaultValue.map { "\($0)" } ?? "-") "
                + "class \(attribute.attributeValueClassName ?? "-") transformer \(attribute.valueTransformerName ?? "-") "
                + "external data \(attribute.allowsExternalBinaryDataStorage) history \(attribute.preservesValueInHistoryOnDeletion) "
                + "min \(attribute.minimumValueString ?? "-") max \(attribute.maximumValueString ?? "-") "
                + "regex \(attribute.regularExpressionString ?? "-") composite \(attribute.compositeName ?? "-")"
        case let relationship as NSRelationshipDescription:
            text += " destination \(relationship.destinationEntityName) inverse \(relationship.inverseRelationshipName ?? "-") "
                + "count \(relationship.minCount)...\(relationship.maxCount) delete \(relationship.deleteRule.rawValue) ordered \(relationship.isOrdered)"
        case let fetched as NSFetchedPropertyDescription:
            text += " fetches \(fetched.fetchEntityName ?? "-") where \(fetched.predicateFormat ?? "-") sorted \(fetched.sortDescriptors.count)"
        default: break
        }
        return text
    }
}
