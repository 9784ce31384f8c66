import CoreDataModel
import Foundation

// Apple's ways to find the model a store was written with, from its metadata (`NSStoreModelVersionHashes`), among
// several models or model versions, and the version checksums of a versioned model.

extension NSManagedObjectModel {
    /// The model, merged from `models`, whose entities are exactly those `metadata` records (each entity's version
    /// hash under `NSStoreModelVersionHashesKey`), as Apple's initialiser: for each entity of the store, the first
    /// entity of that name and hash in `models` (any version of a model may give it), copied. Nil when an entity of
    /// the store has no match, when the metadata records no hashes, or when the chosen entities do not link (a
    /// relationship's destination is missing).
    public convenience init?(byMerging models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]) {
        let hashes = (metadata[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
        guard !hashes.isEmpty else { return nil }
        var chosen: [NSEntityDescription] = []
        var chosenNames = Set<String>()
        var contributors: [NSManagedObjectModel] = []
        for model in models {
            var contributes = false
            for entity in model.entities where !chosenNames.contains(entity.entityName) && hashes[entity.entityName] == entity.versionHash {
                chosenNames.insert(entity.entityName)
                chosen.append(entity)
                contributes = true
            }
            if contributes { contributors.append(model) }
        }
        guard chosenNames.count == hashes.count else { return nil }
        self.init(entities: chosen.map { $0.copy() as! NSEntityDescription })
        do {
            try link()
        } catch {
            return nil
        }
        // Copies link among themselves; the hashes are checked again on the merged model, which is what a store
        // opening with it compares.
        guard entityVersionHashesByName == hashes else { return nil }
        for model in contributors {
            for (name, members) in model.configurationsByName {
                for member in members where chosenNames.contains(member) && !(configurationsByName[name] ?? []).contains(member) {
                    configurationsByName[name, default: []].append(member)
                }
            }
            for (name, template) in model.fetchRequestTemplatesByName
            where chosenNames.contains(template.entityName) && fetchRequestTemplatesByName[name] == nil {
                fetchRequestTemplatesByName[name] = template
            }
        }
        if let identifiers = metadata[NSStoreModelVersionIdentifiersKey] as? [Any] {
            versionIdentifierStrings = identifiers.map { $0 as? String ?? String(describing: $0) }
        }
    }

    /// The model the store whose metadata is `metadata` was written with, merged from every version of every model
    /// in `bundles` (the main bundle when nil), as Apple's method: see `init(byMerging:forStoreMetadata:)`. Nil when
    /// no combination of them matches.
    public static func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        let models = modelFiles(in: bundles).flatMap { file in
            ((try? ModelLoader.loadVersions(at: file))?.versions ?? []).map(\.model)
        }
        return NSManagedObjectModel(byMerging: models, forStoreMetadata: metadata)
    }

    /// The version checksum (`versionChecksum`) of each version of the model at `modelURL` (a `.momd` or
    /// `.xcdatamodeld`; a single `.mom` or `.xcdatamodel` gives one), by version name, as Apple's method. Throws the
    /// `ModelError` saying why the model cannot be read.
    public static func checksumsForVersionedModel(at modelURL: URL) throws -> [String: String] {
        let versions = try ModelLoader.loadVersions(at: modelURL).versions
        return Dictionary(versions.map { ($0.name, $0.model.versionChecksum) }, uniquingKeysWith: { first, _ in first })
    }
}
