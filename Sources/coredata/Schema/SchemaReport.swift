/// What `coredata schema` reports, and the stable shape of its JSON output (docs/SCHEMA-JSON.md).
///
/// Keys are only ever added, never renamed or removed, so scripts can rely on them.
struct SchemaReport: Codable, Equatable {
    /// `"store"` or `"model"`.
    var kind: String
    /// The path the user gave.
    var path: String
    var store: StoreSummary?
    var model: ModelSummary
    var entities: [Entity]

    struct StoreSummary: Codable, Equatable {
        var type: String?
        var uuid: String?
        var frameworkVersion: Int?
        var journalMode: String?
        /// Where the entity descriptions came from: `"modelCache"`, `"modelFile"` or `"inferred"`.
        var modelSource: String
        /// Whether every entity hash in the store's metadata equals the model's; nil when there is nothing to compare.
        var hashesMatchModel: Bool?
        /// Entities whose hashes differ, or that only one side has.
        var mismatchedEntities: [String]
        /// Notes about what could not be known exactly (inferred models), one sentence each.
        var notes: [String]
    }

    struct ModelSummary: Codable, Equatable {
        var path: String?
        var versionName: String?
        var versionIdentifiers: [String]
        var versionChecksum: String
        var versionHashesDigest: String
        var configurations: [String]
    }

    struct Entity: Codable, Equatable {
        var name: String
        var parent: String?
        var subentities: [String]
        var isAbstract: Bool
        var className: String?
        /// Base64 of the 32-byte SHA-256 version hash, as Apple's metadata writes it.
        var versionHash: String
        /// The hash the store's metadata records for this entity (stores only).
        var storeVersionHash: String?
        var entityNumber: Int?
        var table: String?
        /// Rows whose `Z_ENT` is this entity's (stores only).
        var rowCount: Int?
        /// Rows of this entity and all its subentities (stores only).
        var rowCountIncludingSubentities: Int?
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var uniquenessConstraints: [[String]]
        var indexes: [Index]
        var attributes: [Attribute]
        var relationships: [Relationship]
        var fetchedProperties: [FetchedProperty]
        var userInfo: [String: String]
    }

    struct Attribute: Codable, Equatable {
        var name: String
        var type: String
        var isOptional: Bool
        var isTransient: Bool
        var isDerived: Bool
        var derivation: String?
        var defaultValue: String?
        var valueTransformerName: String?
        var valueClassName: String?
        var allowsExternalBinaryDataStorage: Bool
        var validation: [String]
        var column: String?
        /// The entity that declares it, when inherited.
        var inheritedFrom: String?
        /// True when the store did not record the name's original case (inferred models).
        var nameCaseUnknown: Bool
    }

    struct Relationship: Codable, Equatable {
        var name: String
        var destination: String
        var inverse: String?
        var isToMany: Bool
        var isOrdered: Bool
        var isOptional: Bool
        var minCount: Int
        var maxCount: Int
        var deleteRule: String
        var column: String?
        var joinTable: String?
        var inheritedFrom: String?
        var nameCaseUnknown: Bool
    }

    struct FetchedProperty: Codable, Equatable {
        var name: String
        var entity: String?
        var predicate: String?
    }

    struct Index: Codable, Equatable {
        var name: String
        var elements: [String]
    }
}
