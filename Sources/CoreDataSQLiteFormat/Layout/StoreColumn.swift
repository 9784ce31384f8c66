import CoreDataModel

/// One column of an entity table, and what it stores.
public struct StoreColumn: Sendable, Hashable {
    /// What a column holds.
    public enum Role: Sendable, Hashable {
        /// `Z_PK`, the row's primary key (unique across a whole inheritance tree).
        case primaryKey
        /// `Z_ENT`, the concrete entity number of the row.
        case entityNumber
        /// `Z_OPT`, the optimistic-locking version.
        case optimisticLockVersion
        /// An attribute of `entity`.
        case attribute(entity: String, property: String)
        /// The destination primary key of a to-one relationship of `entity`.
        case toOneKey(entity: String, property: String)
        /// The destination's entity number for a to-one relationship whose destination has subentities
        /// (`Z<n>_<REL>`).
        case toOneEntityNumber(entity: String, property: String)
        /// The position of this row in an ordered to-many relationship whose inverse is this to-one
        /// (`Z_FOK_<REL>`).
        case toOneOrderKey(entity: String, property: String)
    }

    public var name: String
    /// The declared SQL type (`INTEGER`, `VARCHAR`, …).
    public var sqlType: String
    public var role: Role

    public init(name: String, sqlType: String, role: Role) {
        self.name = name
        self.sqlType = sqlType
        self.role = role
    }
}

/// The table of a root entity, which single-table inheritance shares with all its descendants.
public struct EntityTable: Sendable, Hashable {
    /// `Z` + the root entity's name in upper case.
    public var name: String
    public var rootEntityName: String
    public var columns: [StoreColumn]

    public func column(named name: String) -> StoreColumn? { columns.first { $0.name == name } }
}

/// The join table of a many-to-many relationship pair (§5 of the store format reference).
public struct JoinTable: Sendable, Hashable {
    public var name: String
    /// The relationship the table is named after (declared on the lower-numbered entity) and its entity.
    public var entityName: String
    public var relationshipName: String
    /// The inverse relationship and its entity.
    public var inverseEntityName: String
    public var inverseRelationshipName: String
    /// Holds the primary keys of `entityName`'s objects.
    public var sourceKeyColumn: String
    /// Holds the primary keys of `inverseEntityName`'s objects.
    public var destinationKeyColumn: String
    /// The position of the destination object in the ordered relationship, when it is ordered.
    public var relationshipOrderColumn: String?
    /// The position of the source object in the ordered inverse, when the inverse is ordered.
    public var inverseOrderColumn: String?
}
