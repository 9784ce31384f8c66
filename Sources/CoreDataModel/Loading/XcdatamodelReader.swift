import Foundation
import Predicates

/// Reads Xcode's XML model format (the `contents` file inside a `.xcdatamodel` package, Xcode 4 and later).
///
/// Every rejection names the file and the element path with its line, so a user can find the bad element.
package struct XcdatamodelReader {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    package func read(_ data: Data) throws(ModelError) -> NSManagedObjectModel {
        let root = try XMLElementNode.parse(data, file: file)
        guard root.name == "model" else {
            throw error(at: root, "the root element is <\(root.name)>, not <model>: this is not an Xcode data model")
        }
        let model = NSManagedObjectModel()
        model.sourceDescription = file
        if let identifier = root["userDefinedModelVersionIdentifier"] {
            model.versionIdentifierStrings = [identifier]
        }
        var entities: [NSEntityDescription] = []
        for child in root.children {
            switch child.name {
            case "entity":
                entities.append(try readEntity(child))
            case "configuration":
                let name = try required("name", of: child)
                model.configurationsByName[name] = child.children(named: "memberEntity").compactMap { $0["name"] }
            case "fetchRequest":
                let template = try readFetchRequest(child)
                model.fetchRequestTemplatesByName[template.name] = template
            case "composite":
                let composite = try readComposite(child)
                model.compositesByName[composite.name] = composite
            default:
                continue  // `elements` (diagram layout) and unknown future elements carry no model meaning.
            }
        }
        model.entities = entities
        do {
            try model.link()
        } catch {
            throw ModelError(file: file, elementPath: "/model", reason: error.reason)
        }
        return model
    }

    // MARK: Entities

    private func readEntity(_ element: XMLElementNode) throws(ModelError) -> NSEntityDescription {
        let entity = NSEntityDescription(name: try required("name", of: element))
        entity.representedClassName = element["representedClassName"]
        entity.superentityName = element["parentEntity"]
        entity.isAbstract = element.flag("isAbstract")
        entity.renamingIdentifier = element["elementID"]
        entity.versionHashModifier = element["versionHashModifier"]
        for child in element.children {
            switch child.name {
            case "attribute":
                entity.addProperty(try readAttribute(child))
            case "relationship":
                entity.addProperty(try readRelationship(child))
            case "fetchedProperty":
                entity.addProperty(try readFetchedProperty(child))
            case "uniquenessConstraints":
                entity.uniquenessConstraintNames = try child.children(named: "uniquenessConstraint").map { constraint throws(ModelError) in
                    try constraint.children(named: "constraint").map { value throws(ModelError) in try required("value", of: value) }
                }
            case "fetchIndex":
                entity.indexes.append(try readFetchIndex(child))
            case "compoundIndexes":
                entity.compoundIndexes = try child.children(named: "compoundIndex").map { index throws(ModelError) in
                    try index.children(named: "index").map { value throws(ModelError) in try required("value", of: value) }
                }
            case "userInfo":
                entity.userInfoStrings = readUserInfo(child)
            default:
                continue
            }
        }
        var names = Set<String>()
        for property in entity.ownProperties where !names.insert(property.name).inserted {
            throw error(at: element, "entity \(entity.entityName) declares the property \(property.name) twice")
        }
        return entity
    }

    // MARK: Properties

    private func readAttribute(_ element: XMLElementNode) throws(ModelError) -> NSAttributeDescription {
        let name = try required("name", of: element)
        let typeName = element["attributeType"] ?? "Undefined"
        guard let type = NSAttributeType(xcodeName: typeName) else {
            throw error(at: element, "unknown attributeType \"\(typeName)\"")
        }
        let attribute: NSAttributeDescription
        if element.flag("derived") {
            let expression = try required("derivationExpression", of: element)
            let canonical: String
            do {
                canonical = try DerivationExpressionFormat.canonical(expression)
            } catch {
                throw self.error(at: element, "invalid derivationExpression: \(error.description)")
            }
            attribute = NSDerivedAttributeDescription(name: name, type: type, derivationExpressionFormat: canonical)
        } else {
            attribute = NSAttributeDescription(name: name, type: type)
        }
        readCommonPropertyAttributes(element, into: attribute)
        attribute.attributeValueClassName = element["customClassName"]
        attribute.valueTransformerName = element["valueTransformerName"]
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        attribute.allowsCloudEncryption = element.flag("allowsCloudEncryption")
        attribute.isIndexedBySpotlight = element.flag("spotlightIndexingEnabled")
        attribute.minimumValueString = element["minValueString"]
        attribute.maximumValueString = element["maxValueString"]
        attribute.regularExpressionString = element["regularExpressionString"]
        attribute.compositeName = element["composite"]
        do {
            if let interval = element["defaultDateTimeInterval"] {
                attribute.attributeDefault = try AttributeValue(parsing: interval, as: .dateAttributeType)
            } else if let text = element["defaultValueString"] {
                attribute.attributeDefault = try AttributeValue(parsing: text, as: type)
            }
        } catch {
            throw self.error(at: element, "invalid default value: \(error.description)")
        }
        attribute.validationRules = try ValidationRuleBuilder.rules(for: attribute)
            .mapError { self.error(at: element, $0.description) }.get()
        return attribute
    }

    private func readRelationship(_ element: XMLElementNode) throws(ModelError) -> NSRelationshipDescription {
        let name = try required("name", of: element)
        let relationship = NSRelationshipDescription(
            name: name, destinationEntityName: try required("destinationEntity", of: element))
        readCommonPropertyAttributes(element, into: relationship)
        relationship.inverseRelationshipName = element["inverseName"]
        relationship.inverseEntityName = element["inverseEntity"]
        relationship.isOrdered = element.flag("ordered")
        let isToMany = element.flag("toMany")
        relationship.minCount = try integer("minCount", of: element) ?? 0
        relationship.maxCount = try integer("maxCount", of: element) ?? (isToMany ? 0 : 1)
        if isToMany && relationship.maxCount == 1 {
            throw error(at: element, "a to-many relationship cannot have maxCount 1")
        }
        if let ruleName = element["deletionRule"] {
            guard let rule = NSDeleteRule(xcodeName: ruleName) else {
                throw error(at: element, "unknown deletionRule \"\(ruleName)\"")
            }
            relationship.deleteRule = rule
        }
        return relationship
    }

    private func readFetchedProperty(_ element: XMLElementNode) throws(ModelError) -> NSFetchedPropertyDescription {
        let property = NSFetchedPropertyDescription(name: try required("name", of: element))
        readCommonPropertyAttributes(element, into: property)
        if let request = element.firstChild(named: "fetchRequest") {
            property.fetchEntityName = request["entity"]
            property.predicateFormat = request["predicateString"]
        }
        return property
    }

    private func readCommonPropertyAttributes(_ element: XMLElementNode, into property: NSPropertyDescription) {
        property.isOptional = element.flag("optional")
        property.isTransient = element.flag("transient")
        property.isIndexed = element.flag("indexed")
        property.renamingIdentifier = element["elementID"]
        property.versionHashModifier = element["versionHashModifier"]
        if let userInfo = element.firstChild(named: "userInfo") {
            property.userInfoStrings = readUserInfo(userInfo)
        }
    }

    // MARK: Other elements

    private func readFetchIndex(_ element: XMLElementNode) throws(ModelError) -> NSFetchIndexDescription {
        let name = try required("name", of: element)
        let elements = try element.children(named: "fetchIndexElement").map { item throws(ModelError) -> NSFetchIndexElementDescription in
            let typeName = item["type"] ?? "Binary"
            guard let collation = NSFetchIndexElementType(xcodeName: typeName) else {
                throw error(at: item, "unknown fetch index type \"\(typeName)\"")
            }
            guard item["property"] != nil || item["expression"] != nil else {
                throw error(at: item, "a fetch index element needs a property or an expression")
            }
            return NSFetchIndexElementDescription(
                propertyName: item["property"], expressionFormat: item["expression"], collationType: collation,
                isAscending: item["order"] != "descending")
        }
        var partial: Predicates.NSPredicate?
        if let format = element["partialIndexExpression"] {
            do {
                partial = try Predicates.NSPredicate(parsing: format)
            } catch {
                throw self.error(at: element, "fetch index \(name) has an invalid partial index predicate \"\(format)\": \(error)")
            }
        }
        return NSFetchIndexDescription(name: name, elements: elements, partialIndexPredicate: partial)
    }

    private func readFetchRequest(_ element: XMLElementNode) throws(ModelError) -> FetchRequestTemplate {
        FetchRequestTemplate(name: try required("name", of: element), entityName: try required("entity", of: element),
                             predicateFormat: element["predicateString"], fetchLimit: try integer("fetchLimit", of: element))
    }

    private func readComposite(_ element: XMLElementNode) throws(ModelError) -> CompositeDescription {
        let name = try required("name", of: element)
        let elements = try element.children(named: "attribute").map { item throws(ModelError) -> CompositeDescription.Element in
            let typeName = item["attributeType"] ?? "Undefined"
            guard let type = NSAttributeType(xcodeName: typeName) else {
                throw error(at: item, "unknown attributeType \"\(typeName)\"")
            }
            return .init(name: try required("name", of: item), attributeType: type, isOptional: item.flag("optional"),
                         compositeName: item["composite"])
        }
        return CompositeDescription(name: name, elements: elements)
    }

    private func readUserInfo(_ element: XMLElementNode) -> [String: String] {
        var result: [String: String] = [:]
        for entry in element.children(named: "entry") {
            if let key = entry["key"] { result[key] = entry["value"] ?? "" }
        }
        return result
    }

    // MARK: Checks

    private func required(_ attribute: String, of element: XMLElementNode) throws(ModelError) -> String {
        guard let value = element[attribute], !value.isEmpty else {
            throw error(at: element, "<\(element.name)> is missing its \(attribute) attribute")
        }
        return value
    }

    private func integer(_ attribute: String, of element: XMLElementNode) throws(ModelError) -> Int? {
        guard let text = element[attribute] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw error(at: element, "\(attribute) \"\(text)\" is not a non-negative integer")
        }
        return value
    }

    private func error(at element: XMLElementNode, _ reason: String) -> ModelError {
        ModelError(file: file, elementPath: element.path, reason: reason)
    }
}
