import Foundation

/// What differs between the model a store was written with and another model: entities added, removed and changed,
/// and for changed entities which properties were added, removed or changed. Without the store's own model (stores
/// older than the model cache) only the entity names are known.
public struct ModelDifference: Sendable, Equatable, CustomStringConvertible {
    public enum EntityChange: Sendable, Equatable {
        /// In the model, not in the store.
        case added(String)
        /// In the store, not in the model.
        case removed(String)
        /// In both, with different hashes; `details` lists what changed when the store's model is known.
        case changed(String, details: [String])
    }

    public var changes: [EntityChange]

    /// Compares the store's recorded hashes (and, when known, its own model) with `model`'s entities of
    /// `configuration`.
    public init(storeHashes: [String: Data], storeModel: NSManagedObjectModel?, model: NSManagedObjectModel, configuration: String? = nil) {
        let entities = model.configurationEntities(configuration)
        let mine = Dictionary(entities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [EntityChange] = []
        for name in Set(storeHashes.keys).union(mine.keys).sorted() {
            switch (storeHashes[name], mine[name]) {
            case (nil, _?): changes.append(.added(name))
            case (_?, nil): changes.append(.removed(name))
            case (let hash?, let entity?) where hash != entity.versionHash:
                let old = storeModel?.entitiesByName[name]
                changes.append(.changed(name, details: old.map { Self.details(from: $0, to: entity) } ?? []))
            default: continue
            }
        }
        self.changes = changes
    }

    public var isEmpty: Bool { changes.isEmpty }

    /// One clause per entity: `Mood changed (+rating, remoteIdentifier removed)`, `Continent added`.
    public var description: String {
        changes.map { change in
            switch change {
            case .added(let name): return "\(name) added to the model"
            case .removed(let name): return "\(name) removed from the model"
            case .changed(let name, let details):
                return details.isEmpty ? "\(name) changed" : "\(name) changed (\(details.joined(separator: ", ")))"
            }
        }.joined(separator: "; ")
    }

    private static func details(from old: NSEntityDescription, to new: NSEntityDescription) -> [String] {
        var details: [String] = []
        if old.superentity?.entityName != new.superentity?.entityName {
            details.append("parent \(old.superentity?.entityName ?? "none") → \(new.superentity?.entityName ?? "none")")
        }
        if old.isAbstract != new.isAbstract { details.append(new.isAbstract ? "now abstract" : "no longer abstract") }
        if old.versionHashModifier != new.versionHashModifier { details.append("version hash modifier changed") }
        let before = old.propertiesByName, after = new.propertiesByName
        for name in Set(before.keys).union(after.keys).sorted() {
            switch (before[name], after[name]) {
            case (nil, let added?):
                let renamed = added.renamingIdentifier.flatMap { $0 != name && before[$0] != nil ? $0 : nil }
                details.append(renamed.map { "\($0) renamed \(name)" } ?? "+\(name)")
            case (_?, nil):
                if !after.values.contains(where: { $0.renamingIdentifier == name }) { details.append("-\(name)") }
            case (let was?, let now?) where was.versionHash != now.versionHash:
                details.append("\(name): \(propertyChange(from: was, to: now))")
            default: continue
            }
        }
        return details
    }

    private static func propertyChange(from old: NSPropertyDescription, to new: NSPropertyDescription) -> String {
        var parts: [String] = []
        if let a = old as? NSAttributeDescription, let b = new as? NSAttributeDescription {
            if a.attributeType != b.attributeType { parts.append("type \(a.attributeType.xcodeName) → \(b.attributeType.xcodeName)") }
            if a.allowsExternalBinaryDataStorage != b.allowsExternalBinaryDataStorage { parts.append("external storage toggled") }
        } else if let a = old as? NSRelationshipDescription, let b = new as? NSRelationshipDescription {
            if a.destinationEntityName != b.destinationEntityName { parts.append("destination \(a.destinationEntityName) → \(b.destinationEntityName)") }
            if a.isToMany != b.isToMany { parts.append(b.isToMany ? "to-one → to-many" : "to-many → to-one") }
            if a.isOrdered != b.isOrdered { parts.append(b.isOrdered ? "now ordered" : "no longer ordered") }
            if a.inverseRelationshipName != b.inverseRelationshipName { parts.append("inverse changed") }
        } else {
            parts.append(new is NSRelationshipDescription ? "attribute → relationship" : "relationship → attribute")
        }
        if old.isOptional != new.isOptional { parts.append(new.isOptional ? "now optional" : "now required") }
        if old.isTransient != new.isTransient { parts.append(new.isTransient ? "now transient" : "no longer transient") }
        if old.versionHashModifier != new.versionHashModifier { parts.append("version hash modifier changed") }
        return parts.isEmpty ? "changed" : parts.joined(separator: ", ")
    }
}
