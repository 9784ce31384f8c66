import Synchronization

/// An entity's inherited property list and its name index, as last computed.
///
/// `allProperties` and `propertiesByName` are read for every value set and every object validated, and building
/// them merges the inheritance chain into a new array and dictionary each time. Models are mutable while they are
/// built, so the cache is tagged with a generation that every change to any entity's property list, any property's
/// name or any superentity link advances; a cache from an older generation is recomputed. Once a model is in use
/// it no longer changes and every read is a lookup.
struct PropertyCache: Sendable {
    var generation: Int
    var all: [NSPropertyDescription]
    var byName: [String: NSPropertyDescription]
}

/// The generation of every model's structure: property lists, property and entity names, superentity links and
/// entity lists (see `PropertyCache`).
private let propertyGeneration = Atomic<Int>(0)

extension NSEntityDescription {
    /// Invalidates every entity's property cache and every model's entity index: called when a property list, a
    /// property or entity name, a superentity link or a model's entity list changes.
    static func propertiesDidChange() {
        propertyGeneration.add(1, ordering: .releasing)
    }

    /// The current generation, for caches derived from a model's structure.
    package static var structureGeneration: Int { propertyGeneration.load(ordering: .acquiring) }

    /// The cached properties, recomputed when the model changed since they were computed.
    var cachedProperties: PropertyCache {
        let generation = Self.structureGeneration
        if let cache = propertyCache.withLock({ $0 }), cache.generation == generation { return cache }
        let all = computeAllProperties()
        let cache = PropertyCache(generation: generation, all: all,
                                  byName: Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last }))
        propertyCache.withLock { $0 = cache }
        return cache
    }
}

extension NSManagedObjectModel {
    /// `entitiesByName`, computed once per model generation (see `PropertyCache`).
    var cachedEntitiesByName: [String: NSEntityDescription] {
        let generation = NSEntityDescription.structureGeneration
        if let cache = entityIndex.withLock({ $0 }), cache.generation == generation { return cache.byName }
        let byName = Dictionary(entities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        entityIndex.withLock { $0 = EntityIndex(generation: generation, byName: byName) }
        return byName
    }
}

/// A model's entities by name, as last computed (see `PropertyCache`).
struct EntityIndex: Sendable {
    var generation: Int
    var byName: [String: NSEntityDescription]
}
