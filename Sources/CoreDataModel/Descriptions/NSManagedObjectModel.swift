import Foundation
import Synchronization

/// A managed object model: the entities of an object graph, their configurations and fetch request templates.
///
/// Build one in code, or load one with `ModelLoader` from an Xcode model (`.xcdatamodeld`, `.xcdatamodel`),
/// a compiled model (`.momd`, `.mom`), or a store's own model cache.
open class NSManagedObjectModel: @unchecked Sendable, CustomStringConvertible {
    /// The entities, in the order they were given. Setting them links parents, destinations and inverses by name.
    public var entities: [NSEntityDescription] {
        didSet {
            NSEntityDescription.propertiesDidChange()
            linkLeniently()
        }
    }
    /// `entitiesByName`, cached (see `PropertyCache`).
    let entityIndex = Mutex<EntityIndex?>(nil)
    /// Named configurations, each listing the names of its member entities.
    public var configurationsByName: [String: [String]] = [:]
    public var fetchRequestTemplatesByName: [String: FetchRequestTemplate] = [:]
    /// The model's version identifiers (Xcode's "Model Version Identifier"), as Apple's `Set<AnyHashable>`. Stores
    /// record them in their metadata and model files as text: a string as it is, any other value as
    /// `String(describing:)` of it (see `versionIdentifierStrings`).
    public var versionIdentifiers: Set<AnyHashable> {
        get { Set(orderedVersionIdentifiers) }
        set {
            // A set has no order; sorting by the recorded text keeps the metadata a model writes the same every time.
            orderedVersionIdentifiers = newValue.sorted { Self.text(of: $0) < Self.text(of: $1) }
        }
    }
    /// The identifiers in the order the model file or store metadata gave them.
    var orderedVersionIdentifiers: [AnyHashable] = []
    /// The version identifiers as model files and store metadata record them (see `versionIdentifiers`), in the
    /// order the model file gave them.
    package var versionIdentifierStrings: [String] {
        get { orderedVersionIdentifiers.map(Self.text(of:)) }
        set {
            var seen = Set<String>()
            orderedVersionIdentifiers = newValue.filter { seen.insert($0).inserted }.map(AnyHashable.init)
        }
    }

    private static func text(of identifier: AnyHashable) -> String {
        identifier.base as? String ?? String(describing: identifier.base)
    }
    /// iOS 17 composite attribute types, by name.
    public var compositesByName: [String: CompositeDescription] = [:]
    /// Where the model was read from, for messages.
    public var sourceDescription: String?
    /// The localized names of the model's entities, properties and error messages (Apple's
    /// `localizationDictionary`, keys such as `Entity/Person` and `Property/name/Entity/Person`); nil until set.
    public var localizationDictionary: [String: String]?

    public init(entities: [NSEntityDescription] = []) {
        self.entities = entities
        linkLeniently()
    }

    public var entitiesByName: [String: NSEntityDescription] { cachedEntitiesByName }

    /// The configuration names, sorted.
    public var configurations: [String] { configurationsByName.keys.sorted() }

    /// The name Core Data gives the configuration that holds every entity (what a store added with no configuration
    /// name uses).
    package static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"

    /// The entities of a configuration, as Apple's method answers: all entities for nil and for
    /// `PF_DEFAULT_CONFIGURATION_NAME`, the members of a configuration the model declares (Xcode's `Default` only if
    /// the model declares one of that name), and nil for any other name.
    public func entities(forConfigurationName name: String?) -> [NSEntityDescription]? {
        guard let name else { return entities }
        guard let members = configurationsByName[name] else { return name == Self.defaultConfigurationName ? entities : nil }
        let byName = entitiesByName
        return members.compactMap { byName[$0] }
    }

    /// The entities a store of configuration `name` holds: those of `entities(forConfigurationName:)`, and all
    /// entities for a name the model does not declare (a store keeps what the model gives it rather than nothing).
    package func configurationEntities(_ name: String?) -> [NSEntityDescription] {
        entities(forConfigurationName: name) ?? entities
    }

    /// Makes `entities` (entities of this model) the members of the configuration `name`, as Apple's method does.
    public func setEntities(_ entities: [NSEntityDescription], forConfigurationName name: String) {
        configurationsByName[name] = entities.map(\.entityName)
    }

    /// Each entity's version hash, by entity name: what a compatible store's `NSStoreModelVersionHashes` holds.
    public var entityVersionHashesByName: [String: Data] {
        Dictionary(entities.map { ($0.entityName, $0.versionHash) }, uniquingKeysWith: { first, _ in first })
    }

    /// The model's version checksum: base64 of SHA-256 over the entity hashes in entity-name order
    /// (metadata key `NSStoreModelVersionChecksumKey`).
    public var versionChecksum: String { VersionHashing.checksum(of: entityVersionHashesByName) }

    /// The digest of the entity hashes: base64 of SHA-512 over each name and hash in name order
    /// (metadata key `NSStoreModelVersionHashesDigest`).
    public var versionHashesDigest: String { VersionHashing.digest(of: entityVersionHashesByName) }

    /// Whether a store whose metadata is `metadata` can be opened with this model: its recorded entity hashes
    /// (`NSStoreModelVersionHashes`) are exactly this model's.
    public func isConfiguration(withName configuration: String?, compatibleWithStoreHashes storeHashes: [String: Data]) -> Bool {
        let mine = Dictionary(configurationEntities(configuration).map { ($0.entityName, $0.versionHash) },
                              uniquingKeysWith: { first, _ in first })
        // A named configuration answers for its own entities only: the store may hold the model's other entities.
        return mine == (configuration == nil ? storeHashes : storeHashes.filter { mine[$0.key] != nil })
    }

    /// Apple's spelling: whether the store whose metadata dictionary is `metadata` (`NSStoreModelVersionHashes` of
    /// entity name → hash data) can be opened with `configuration` of this model without migrating.
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        let hashes = (metadata["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
        return isConfiguration(withName: configuration, compatibleWithStoreHashes: hashes)
    }

    public var description: String {
        "NSManagedObjectModel(\(entities.map(\.entityName).joined(separator: ", ")))"
    }

    // MARK: Linking

    /// Resolves parents, subentities, relationship destinations and inverses by name, and reports every name that
    /// does not resolve. Loaders call this so that a broken model file is an error, not a half-linked model.
    public func link() throws(ModelError) {
        let problems = linkLeniently()
        if !problems.isEmpty {
            throw ModelError(file: sourceDescription, reason: problems.joined(separator: "; "))
        }
    }

    /// Links what resolves and returns a description of each reference that does not.
    @discardableResult
    private func linkLeniently() -> [String] {
        var problems: [String] = []
        let byName = entitiesByName
        var seen = Set<String>()
        for entity in entities where !seen.insert(entity.entityName).inserted {
            problems.append("entity \(entity.entityName) is declared twice")
        }
        for entity in entities {
            entity.setModel(self)
            entity.setSubentities([])
        }
        for entity in entities {
            guard let parentName = entity.superentityName else {
                entity.linkSuperentity(nil)
                continue
            }
            if let parent = byName[parentName] {
                entity.linkSuperentity(parent)
                parent.setSubentities(parent.subentities + [entity])
            } else {
                problems.append("entity \(entity.entityName) has an unknown parent entity \(parentName)")
            }
        }
        for entity in entities where hasInheritanceCycle(entity) {
            problems.append("entity \(entity.entityName) inherits from itself")
            // Cut the loop on both sides: a parent that still listed the entity would lead every walk down the
            // subentities (entity numbering, layouts) back to it forever.
            if let parent = entity.superentity { parent.setSubentities(parent.subentities.filter { $0 !== entity }) }
            entity.linkSuperentity(nil)
        }
        for entity in entities { entity.forgetInheritanceTreeToken() }
        for entity in entities {
            for case let relationship as NSRelationshipDescription in entity.ownProperties {
                guard let destination = byName[relationship.destinationEntityName] else {
                    problems.append("relationship \(entity.entityName).\(relationship.name) has an unknown destination entity \(relationship.destinationEntityName)")
                    continue
                }
                relationship.destinationEntity = destination
                guard let inverseName = relationship.inverseRelationshipName else { continue }
                let inverseOwner = relationship.inverseEntityName.flatMap { byName[$0] } ?? destination
                if let inverse = inverseOwner.propertiesByName[inverseName] as? NSRelationshipDescription {
                    relationship.inverseRelationship = inverse
                } else {
                    problems.append("relationship \(entity.entityName).\(relationship.name) has an unknown inverse \(inverseOwner.entityName).\(inverseName)")
                }
            }
        }
        return problems
    }

    private func hasInheritanceCycle(_ entity: NSEntityDescription) -> Bool {
        var visited = Set<ObjectIdentifier>()
        var current: NSEntityDescription? = entity
        while let candidate = current {
            if !visited.insert(ObjectIdentifier(candidate)).inserted { return true }
            current = candidate.superentity
        }
        return false
    }
}
