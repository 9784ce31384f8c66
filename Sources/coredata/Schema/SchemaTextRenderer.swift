import TerminalText

/// Lays a `SchemaReport` out for people: a header for the store or model, then one block per entity.
/// Every name and value passes the terminal sanitiser.
enum SchemaTextRenderer {
    static func render(_ report: SchemaReport) -> String {
        var out = ""
        func line(_ text: String = "") { out += text + "\n" }
        let clean = { (text: String) in TerminalSanitizer.sanitize(text) }

        if let store = report.store {
            line("Store \(clean(report.path))")
            var facts: [String] = []
            if let type = store.type { facts.append("type \(clean(type))") }
            if let uuid = store.uuid { facts.append("UUID \(clean(uuid))") }
            if let version = store.frameworkVersion { facts.append("framework \(version)") }
            if let journal = store.journalMode { facts.append("journal \(clean(journal))") }
            line("  " + facts.joined(separator: " · "))
            line("  model: \(modelSourceText(store, report.model))")
            switch store.hashesMatchModel {
            case true?: line("  version hashes: match the store's metadata")
            case false?: line("  version hashes: DO NOT MATCH for \(store.mismatchedEntities.map(clean).joined(separator: ", "))")
            case nil where store.modelSource == "inferred":
                line("  version hashes: not compared (an inferred model cannot reproduce them; pass --model)")
            case nil: line("  version hashes: nothing to compare (the store records none)")
            }
            for note in store.notes { line("  note: \(clean(note))") }
        } else {
            let version = report.model.versionName.map { " (version \(clean($0)))" } ?? ""
            line("Model \(clean(report.path))\(version)")
        }
        if !report.model.versionIdentifiers.isEmpty {
            line("  version identifiers: \(report.model.versionIdentifiers.map { "\"\(clean($0))\"" }.joined(separator: ", "))")
        }
        line("  version checksum: \(report.model.versionChecksum)")
        if !report.model.configurations.isEmpty {
            line("  configurations: \(report.model.configurations.map(clean).joined(separator: ", "))")
        }
        line("  \(report.entities.count) \(report.entities.count == 1 ? "entity" : "entities")")

        for entity in report.entities {
            line()
            var heading = "Entity \(clean(entity.name))"
            if let parent = entity.parent { heading += " : \(clean(parent))" }
            if entity.isAbstract { heading += "  (abstract)" }
            if let count = entity.rowCount {
                let total = entity.rowCountIncludingSubentities ?? count
                heading += total != count ? "  \(count) rows (\(total) with subentities)" : "  \(count) \(count == 1 ? "row" : "rows")"
            }
            line(heading)
            var details: [String] = []
            if let table = entity.table, let number = entity.entityNumber { details.append("table \(clean(table)), Z_ENT \(number)") }
            details.append("hash \(entity.versionHash)")
            if let stored = entity.storeVersionHash, stored != entity.versionHash { details.append("store hash \(stored)") }
            line("  " + details.joined(separator: " · "))
            if !entity.subentities.isEmpty { line("  subentities: \(entity.subentities.map(clean).joined(separator: ", "))") }
            if let renamed = entity.renamingIdentifier { line("  renamed from: \(clean(renamed))") }
            for constraint in entity.uniquenessConstraints {
                line("  unique: \(constraint.map(clean).joined(separator: ", "))")
            }
            for index in entity.indexes {
                line("  index \(clean(index.name)): \(index.elements.map(clean).joined(separator: ", "))")
            }
            if !entity.attributes.isEmpty {
                line("  attributes")
                let width = entity.attributes.map { clean($0.name).count + ($0.nameCaseUnknown ? 1 : 0) }.max() ?? 0
                for attribute in entity.attributes {
                    line("    " + pad(clean(attribute.name) + (attribute.nameCaseUnknown ? "?" : ""), width) + "  " + attributeText(attribute, clean))
                }
            }
            if !entity.relationships.isEmpty {
                line("  relationships")
                let width = entity.relationships.map { clean($0.name).count + ($0.nameCaseUnknown ? 1 : 0) }.max() ?? 0
                for relationship in entity.relationships {
                    line("    " + pad(clean(relationship.name) + (relationship.nameCaseUnknown ? "?" : ""), width) + "  " + relationshipText(relationship, clean))
                }
            }
            if !entity.fetchedProperties.isEmpty {
                line("  fetched properties")
                for property in entity.fetchedProperties {
                    line("    \(clean(property.name))  fetches \(clean(property.entity ?? "?")) where \(clean(property.predicate ?? "TRUEPREDICATE"))")
                }
            }
        }
        if report.entities.contains(where: { $0.attributes.contains(where: \.nameCaseUnknown) || $0.relationships.contains(where: \.nameCaseUnknown) }) {
            line()
            line("? the store records this name in upper case only: its original case is unknown.")
        }
        // A last pass over the whole text, so that nothing built from data can reach the terminal raw.
        return TerminalSanitizer.sanitize(out, layout: .multiLine)
    }

    private static func modelSourceText(_ store: SchemaReport.StoreSummary, _ model: SchemaReport.ModelSummary) -> String {
        switch store.modelSource {
        case "modelCache": return "from the store's model cache (Z_MODELCACHE)"
        case "modelFile": return "from \(TerminalSanitizer.sanitize(model.path ?? "the given model"))"
        default: return "inferred from the store's tables (no model cache and no --model)"
        }
    }

    private static func attributeText(_ attribute: SchemaReport.Attribute, _ clean: (String) -> String) -> String {
        var parts = [attribute.type]
        parts.append(attribute.isOptional ? "optional" : "required")
        if attribute.isTransient { parts.append("transient") }
        if let derivation = attribute.derivation { parts.append("derived from \(clean(derivation))") }
        if let value = attribute.defaultValue { parts.append("default \(clean(value))") }
        if let transformer = attribute.valueTransformerName { parts.append("transformer \(clean(transformer))") }
        if let valueClass = attribute.valueClassName { parts.append("class \(clean(valueClass))") }
        if attribute.allowsExternalBinaryDataStorage { parts.append("external storage") }
        for rule in attribute.validation { parts.append("valid if \(clean(rule))") }
        if let column = attribute.column { parts.append("→ \(clean(column))") }
        if let owner = attribute.inheritedFrom { parts.append("(from \(clean(owner)))") }
        return parts.joined(separator: ", ")
    }

    private static func relationshipText(_ relationship: SchemaReport.Relationship, _ clean: (String) -> String) -> String {
        var parts: [String] = []
        let cardinality = relationship.isToMany ? (relationship.isOrdered ? "to-many ordered" : "to-many") : "to-one"
        parts.append("\(cardinality) \(clean(relationship.destination))")
        if let inverse = relationship.inverse { parts.append("inverse \(clean(inverse))") } else { parts.append("no inverse") }
        parts.append(relationship.isOptional ? "optional" : "required")
        if relationship.minCount > 0 || (relationship.isToMany && relationship.maxCount > 0) {
            parts.append("count \(relationship.minCount)…\(relationship.maxCount == 0 ? "∞" : String(relationship.maxCount))")
        }
        parts.append("delete rule \(relationship.deleteRule)")
        if let column = relationship.column { parts.append("→ \(clean(column))") }
        if let join = relationship.joinTable { parts.append("→ join table \(clean(join))") }
        if let owner = relationship.inheritedFrom { parts.append("(from \(clean(owner)))") }
        return parts.joined(separator: ", ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
