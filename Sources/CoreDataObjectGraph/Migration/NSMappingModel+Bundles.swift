import CoreDataModel
import Foundation

/// Apple's ways of getting a compiled mapping model (`NAME.cdm`) without naming the models: from a file, and by
/// searching bundles for the one compiled between two model versions.
extension NSMappingModel {
    /// The compiled mapping model (`.cdm`, a keyed archive of `NSMappingModel`) at `url`, as Apple's
    /// `init?(contentsOf:)`; nil when `url` is nil or the file is not one. `compiledMappingModel(contentsOf:)` says
    /// what is wrong with a file, and `init(contentsOf:sourceModel:destinationModel:)` also reads Xcode's
    /// `.xcmappingmodel` documents, which need the two models.
    public convenience init?(contentsOf url: URL?) {
        guard let url, let compiled = try? Self.compiledMappingModel(contentsOf: url) else { return nil }
        self.init(entityMappings: compiled.entityMappings)
    }

    /// The compiled mapping model from `sourceModel` to `destinationModel` found in `bundles` (the main bundle when
    /// nil), as Apple's `init?(from:forSourceModel:destinationModel:)`; nil when none fits or a model is nil.
    ///
    /// Every `.cdm` directly in a bundle's resource directory (and its bundle directory) is read; on Linux the main
    /// bundle is the executable's directory, where a program keeps its resources. A mapping model fits when it was
    /// compiled for exactly these versions: each entity mapping carries the version hashes of its entities, which
    /// must be the models', and every entity of the source model is the source of a mapping and every entity of
    /// the destination model the destination of one (Xcode compiles a mapping for every entity, added and removed
    /// ones included). Files are tried in name order within a bundle; unreadable ones are skipped.
    public convenience init?(from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?,
                             destinationModel: NSManagedObjectModel?) {
        guard let sourceModel, let destinationModel else { return nil }
        for directory in Self.searchDirectories(bundles) {
            guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) else { continue }
            for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) where file.pathExtension == "cdm" {
                guard let compiled = try? Self.compiledMappingModel(contentsOf: file),
                      compiled.isCompiled(forSourceModel: sourceModel, destinationModel: destinationModel) else { continue }
                self.init(entityMappings: compiled.entityMappings)
                return
            }
        }
        return nil
    }

    /// The directories searched for `bundles`, without repeats: each bundle's resource directory then its own
    /// directory; for nil, the main bundle's and the executable's directory.
    private static func searchDirectories(_ bundles: [Bundle]?) -> [URL] {
        var directories: [URL] = []
        for bundle in bundles ?? [Bundle.main] {
            if let resources = bundle.resourceURL { directories.append(resources) }
            directories.append(bundle.bundleURL)
        }
        if bundles == nil, let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            directories.append(executable.deletingLastPathComponent())
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// Whether this (compiled) mapping model was made between exactly these two model versions.
    private func isCompiled(forSourceModel sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) -> Bool {
        var sources = Set<String>(), destinations = Set<String>()
        for mapping in entityMappings {
            if let name = mapping.sourceEntityName {
                guard let hash = mapping.sourceEntityVersionHash, sourceModel.entitiesByName[name]?.versionHash == hash else { return false }
                sources.insert(name)
            }
            if let name = mapping.destinationEntityName {
                guard let hash = mapping.destinationEntityVersionHash, destinationModel.entitiesByName[name]?.versionHash == hash else { return false }
                destinations.insert(name)
            }
        }
        return sources == Set(sourceModel.entitiesByName.keys) && destinations == Set(destinationModel.entitiesByName.keys)
    }
}
