import CoreDataModel
import Foundation
import Predicates

extension NSManagedObjectModel {
    /// The model in the file at `url` (`.momd`, `.mom`, `.xcdatamodeld`, `.xcdatamodel`); nil when it cannot be
    /// read, as Apple's failable initialiser (`ModelLoader.loadModel(at:)` says why).
    public convenience init?(contentsOf url: URL) {
        guard let loaded = try? ModelLoader.loadModel(at: url) else { return nil }
        self.init(entities: loaded.entities)
        configurationsByName = loaded.configurationsByName
        fetchRequestTemplatesByName = loaded.fetchRequestTemplatesByName
        versionIdentifierStrings = loaded.versionIdentifierStrings
        compositesByName = loaded.compositesByName
        sourceDescription = loaded.sourceDescription
    }

    /// One model holding the entities, configurations and templates of `models`; nil when two of them declare an
    /// entity of the same name, as Apple's.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        let models = models ?? []
        var seen = Set<String>()
        var entities: [NSEntityDescription] = []
        for model in models {
            for entity in model.entities {
                guard seen.insert(entity.entityName).inserted else { return nil }
                entities.append(entity)
            }
        }
        self.init(entities: entities)
        for model in models {
            configurationsByName.merge(model.configurationsByName) { $0 + $1 }
            fetchRequestTemplatesByName.merge(model.fetchRequestTemplatesByName) { first, _ in first }
            versionIdentifierStrings += model.versionIdentifierStrings
        }
    }

    /// The models found in `bundles` (the main bundle when nil), merged: every `.momd`, `.mom`, `.xcdatamodeld`
    /// and `.xcdatamodel` directly in a bundle's resource directory. Nil when none is found or they clash.
    public static func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        let models = modelFiles(in: bundles).compactMap { try? ModelLoader.loadModel(at: $0) }
        return models.isEmpty ? nil : NSManagedObjectModel(byMerging: models)
    }

    /// The model files directly in the resource directories of `bundles` (the main bundle when nil). A compiled
    /// model and its source side by side are one model: the first of each name is taken.
    static func modelFiles(in bundles: [Bundle]?) -> [URL] {
        let extensions: Set<String> = ["momd", "mom", "xcdatamodeld", "xcdatamodel"]
        var found: [URL] = []
        for bundle in bundles ?? [Bundle.main] {
            guard let directory = bundle.resourceURL,
                  let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) else { continue }
            var names = Set<String>()
            for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent })
            where extensions.contains(file.pathExtension) && names.insert(file.deletingPathExtension().lastPathComponent).inserted {
                found.append(file)
            }
        }
        return found
    }

    /// The model's fetch request template `name` as a fetch request (Apple's is `NSFetchRequest<NSFetchRequestResult>`;
    /// Swift on Linux has no self-conforming protocol, so it fetches objects); nil when there is none. Each call
    /// makes a new request, so changing it leaves the template as it is.
    public func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSManagedObject>? {
        guard let template = fetchRequestTemplatesByName[name] else { return nil }
        let request = NSFetchRequest<NSManagedObject>(entityName: template.entityName)
        request.entity = entitiesByName[template.entityName]
        if let format = template.predicateFormat { request.predicate = Predicates.NSPredicate(format: format) }
        if let limit = template.fetchLimit { request.fetchLimit = limit }
        if !template.sortDescriptors.isEmpty { request.sortDescriptors = template.sortDescriptors }
        request.fetchOffset = template.fetchOffset
        request.fetchBatchSize = template.fetchBatchSize
        request.includesSubentities = template.includesSubentities
        return request
    }

    /// Stores `fetchRequestTemplate` in the model under `name`, or removes the template of that name when it is
    /// nil, as Apple's method does; `fetchRequestTemplate(forName:)`, `fetchRequestFromTemplate(withName:substitutionVariables:)`
    /// and `fetchRequestTemplatesByName` read it back. The model keeps what a template describes of its fetch
    /// (entity, predicate with its `$variables`, sort descriptors, limit, offset, batch size, subentities) as of this
    /// call. A request naming no entity is kept as it is: a fetch with it fails as any request without an entity does.
    public func setFetchRequestTemplate<Result: NSFetchRequestResult>(_ fetchRequestTemplate: NSFetchRequest<Result>?,
                                                                      forName name: String) {
        guard let request = fetchRequestTemplate else {
            fetchRequestTemplatesByName[name] = nil
            return
        }
        fetchRequestTemplatesByName[name] = FetchRequestTemplate(
            name: name, entityName: request.resolvedEntityName ?? "", predicateFormat: request.predicate?.predicateFormat,
            fetchLimit: request.fetchLimit > 0 ? request.fetchLimit : nil, sortDescriptors: request.sortDescriptors ?? [],
            fetchOffset: request.fetchOffset, fetchBatchSize: request.fetchBatchSize,
            includesSubentities: request.includesSubentities)
    }

    /// The template `name` with its `$variables` replaced from `variables`; nil when there is no such template.
    public func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any]) -> NSFetchRequest<NSManagedObject>? {
        guard let request = fetchRequestTemplate(forName: name) else { return nil }
        request.predicate = request.predicate?.withSubstitutionVariables(variables)
        return request
    }
}

extension NSPersistentStoreCoordinator {
    /// Runs `block` asynchronously while no context uses the coordinator (its lock held).
    public func perform(_ block: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { self.withLock(block) }
    }

    /// Runs `block` with the coordinator's lock held and waits for it.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try withLock(block)
    }
}
