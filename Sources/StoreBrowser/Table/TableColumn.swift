import CoreDataModel

/// A column of the object table: a stored attribute or a to-one relationship of the entity.
package struct TableColumn: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        case attribute(NSAttributeType)
        /// A to-one relationship, shown as its destination's label.
        case toOne(destination: String)
        /// Each row's own entity, in the table of an entity with subentities (issue 21).
        case entity
        /// A key path through relationships or with a collection operator (`chef.name`, `ingredients.@count`).
        case keyPath
    }

    package let key: String
    package let kind: Kind

    /// Numbers are right-aligned so that their digits line up.
    package var isNumeric: Bool {
        if kind == .keyPath { return key.contains("@") }
        guard case .attribute(let type) = kind else { return false }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType,
             .floatAttributeType, .decimalAttributeType:
            return true
        default:
            return false
        }
    }

    /// Whether the column is a key path the store can sort, group and filter by.
    package var isKeyPath: Bool { kind != .entity }

    /// The columns of `entity`: its rows' entity when it has subentities, stored attributes in model order, then
    /// to-one relationships.
    package static func columns(for entity: NSEntityDescription) -> [TableColumn] {
        let properties = entity.allProperties
        let attributes = properties.compactMap { $0 as? NSAttributeDescription }.filter { !$0.isTransient }
            .map { TableColumn(key: $0.name, kind: .attribute($0.attributeType)) }
        let toOnes = properties.compactMap { $0 as? NSRelationshipDescription }.filter { !$0.isToMany }
            .map { TableColumn(key: $0.name, kind: .toOne(destination: $0.destinationEntityName)) }
        let entityColumn = entity.subentities.isEmpty ? [] : [TableColumn(
            key: entity.propertiesByName["entity"] == nil ? "entity" : "(entity)", kind: .entity)]
        return entityColumn + attributes + toOnes
    }

    /// The columns named by `keys` (already checked as key paths of `entity`): its own attributes and to-ones keep
    /// their kinds, anything longer is a key path.
    package static func columns(for entity: NSEntityDescription, keys: [String]) -> [TableColumn] {
        let own = Dictionary(columns(for: entity).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return keys.map { own[$0] ?? TableColumn(key: $0, kind: .keyPath) }
    }
}

/// One level of a table's sort: a key and a direction.
package struct SortKey: Hashable, Sendable {
    package var key: String
    package var ascending: Bool

    package init(key: String, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }

    /// `name` or `-name`, as `--sort` and `:sort` write it.
    package var text: String { ascending ? key : "-" + key }
}
