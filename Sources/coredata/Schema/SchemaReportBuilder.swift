import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import StoreAccess

/// Builds a `SchemaReport` from a model file or a store.
enum SchemaReportBuilder {
    static func build(sourcePath givenPath: String, modelPath: String?, kind: StoreKind? = nil) throws -> SchemaReport {
        if case .file(let type)? = kind, !StoreKind.isFileType(type) {
            return try atomicStoreReport(path: givenPath, modelPath: modelPath, kind: kind)
        }
        // A directory holding one store stands for that store.
        let sourcePath = try SourceKind.storeFile(at: givenPath)
        let url = URL(fileURLWithPath: sourcePath)
        if try SourceKind.detect(url) == .store {
            let isSQLite = try kind.map { $0 == .file(NSSQLiteStoreType) } ?? (StoreKind.detectedType(at: sourcePath) == NSSQLiteStoreType)
            if !isSQLite {
                return try atomicStoreReport(path: sourcePath, modelPath: modelPath, kind: kind)
            }
            return try storeReport(url: url, modelPath: modelPath)
        }
        if modelPath != nil {
            throw CommandFailure("--model applies to stores only; \(sourcePath) is a model")
        }
        let versions = try ModelLoader.loadVersions(at: url)
        return modelReport(path: sourcePath, model: versions.currentModel, versionName: versions.currentVersionName)
    }

    static func modelReport(path: String, model: NSManagedObjectModel, versionName: String?) -> SchemaReport {
        SchemaReport(
            kind: "model", path: path, store: nil,
            model: modelSummary(model, path: path, versionName: versionName),
            entities: entities(of: model, layout: StoreLayout(model: model), counts: nil, storeHashes: nil, inferredNames: []))
    }

    static func modelSummary(_ model: NSManagedObjectModel, path: String?, versionName: String?) -> SchemaReport.ModelSummary {
        SchemaReport.ModelSummary(
            path: path, versionName: versionName, versionIdentifiers: model.versionIdentifierStrings,
            versionChecksum: model.versionChecksum, versionHashesDigest: model.versionHashesDigest,
            configurations: model.configurations)
    }

    /// One report entry per entity, in name order.
    static func entities(
        of model: NSManagedObjectModel, layout: StoreLayout?, counts: [Int: Int]?, storeHashes: [String: Data]?,
        inferredNames: Set<String>
    ) -> [SchemaReport.Entity] {
        model.entities.sorted { $0.entityName < $1.entityName }.map { entity in
            let number = layout?.numbering[entity.entityName]
            let ownCount = counts.map { counts in number.flatMap { counts[$0] } ?? 0 }
            let totalCount = counts.flatMap { counts in
                layout?.numbering.range(of: entity.entityName).map { $0.reduce(0) { $0 + (counts[$1] ?? 0) } }
            }
            return SchemaReport.Entity(
                name: entity.entityName, parent: entity.superentity?.entityName,
                subentities: entity.subentities.map(\.entityName).sorted(), isAbstract: entity.isAbstract,
                className: entity.representedClassName, versionHash: entity.versionHash.base64EncodedString(),
                storeVersionHash: storeHashes?[entity.entityName]?.base64EncodedString(),
                entityNumber: number, table: layout?.table(forEntity: entity.entityName)?.name,
                rowCount: ownCount, rowCountIncludingSubentities: totalCount,
                renamingIdentifier: entity.renamingIdentifier, versionHashModifier: entity.versionHashModifier,
                uniquenessConstraints: entity.uniquenessConstraintNames,
                indexes: entity.indexes.map { index in
                    .init(name: index.name, elements: index.elements.map { element in
                        (element.propertyName ?? element.expressionFormat ?? "?") + (element.isAscending ? "" : " descending")
                    })
                },
                attributes: entity.allProperties.compactMap { $0 as? NSAttributeDescription }.map { attribute in
                    attributeEntry(attribute, in: entity, layout: layout, inferredNames: inferredNames)
                },
                relationships: entity.allProperties.compactMap { $0 as? NSRelationshipDescription }.map { relationship in
                    relationshipEntry(relationship, in: entity, layout: layout, inferredNames: inferredNames)
                },
                fetchedProperties: entity.allProperties.compactMap { $0 as? NSFetchedPropertyDescription }.map {
                    .init(name: $0.name, entity: $0.fetchEntityName, predicate: $0.predicateFormat)
                },
                userInfo: entity.userInfoStrings)
        }
    }

    private static func attributeEntry(
        _ attribute: NSAttributeDescription, in entity: NSEntityDescription, layout: StoreLayout?,
        inferredNames: Set<String>
    ) -> SchemaReport.Attribute {
        let derived = attribute as? NSDerivedAttributeDescription
        return SchemaReport.Attribute(
            name: attribute.name, type: attribute.attributeType.xcodeName, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient, isDerived: derived != nil,
            derivation: derived?.derivationExpressionFormat, defaultValue: attribute.attributeDefault?.displayString,
            valueTransformerName: attribute.valueTransformerName, valueClassName: attribute.attributeValueClassName,
            allowsExternalBinaryDataStorage: attribute.allowsExternalBinaryDataStorage,
            validation: attribute.validationRules.map(\.predicateFormat),
            column: layout?.columns(forProperty: attribute.name, ofEntity: entity.entityName)?.value,
            inheritedFrom: attribute.entity === entity ? nil : attribute.entity?.entityName,
            nameCaseUnknown: inferredNames.contains("\(attribute.entity?.entityName ?? "").\(attribute.name)"))
    }

    private static func relationshipEntry(
        _ relationship: NSRelationshipDescription, in entity: NSEntityDescription, layout: StoreLayout?,
        inferredNames: Set<String>
    ) -> SchemaReport.Relationship {
        SchemaReport.Relationship(
            name: relationship.name, destination: relationship.destinationEntityName,
            inverse: relationship.inverseRelationshipName, isToMany: relationship.isToMany,
            isOrdered: relationship.isOrdered, isOptional: relationship.isOptional,
            minCount: relationship.minCount, maxCount: relationship.maxCount,
            deleteRule: relationship.deleteRule.xcodeName,
            column: layout?.columns(forProperty: relationship.name, ofEntity: entity.entityName)?.value,
            joinTable: layout?.joinTable(forRelationship: relationship.name, ofEntity: entity.entityName)?.name,
            inheritedFrom: relationship.entity === entity ? nil : relationship.entity?.entityName,
            nameCaseUnknown: inferredNames.contains("\(relationship.entity?.entityName ?? "").\(relationship.name)"))
    }
}
