import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess

extension SchemaReportBuilder {
    /// The report of a store that is not SQLite (XML, binary, in memory or a custom type): its metadata, the model
    /// it is read with (given, or for an XML store inferred from the file), the hash comparison, and objects per
    /// entity counted through a context. It has no tables, columns or entity numbers.
    static func atomicStoreReport(path: String, modelPath: String?, kind: StoreKind?) throws -> SchemaReport {
        let session = try StoreSession(storePath: path, modelPath: modelPath, readOnly: true, kind: kind)
        let model = session.model
        guard let store = session.coordinator.persistentStores.first else { throw CommandFailure("\(path): no store was opened") }
        let metadata = session.coordinator.metadata(for: store)
        let storeHashes = (metadata[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
        let modelSource = modelPath == nil ? "inferred" : "modelFile"
        var own: [String: Int] = [:], total: [String: Int] = [:]
        try session.context.performAndWait {
            for entity in model.entities {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
                total[entity.entityName] = try session.context.count(for: request)
                request.includesSubentities = false
                own[entity.entityName] = try session.context.count(for: request)
            }
        }
        let modelHashes = model.entityVersionHashesByName
        let mismatched = Set(storeHashes.keys).union(modelHashes.keys).filter { storeHashes[$0] != modelHashes[$0] }.sorted()
        var notes: [String] = []
        if modelSource == "inferred" {
            notes.append("the model is inferred from the file: entity and property names as the file writes them, every property optional")
        }
        let summary = SchemaReport.StoreSummary(
            type: metadata[NSStoreTypeKey] as? String ?? session.storeType, uuid: metadata[NSStoreUUIDKey] as? String,
            frameworkVersion: nil, journalMode: nil, modelSource: modelSource,
            hashesMatchModel: storeHashes.isEmpty || modelSource == "inferred" ? nil : mismatched.isEmpty,
            mismatchedEntities: modelSource == "inferred" ? [] : mismatched, notes: notes)
        var entities = entities(of: model, layout: nil, counts: nil, storeHashes: storeHashes, inferredNames: [])
        for index in entities.indices {
            entities[index].rowCount = own[entities[index].name]
            entities[index].rowCountIncludingSubentities = total[entities[index].name]
        }
        return SchemaReport(kind: "store", path: session.path, store: summary,
                            model: modelSummary(model, path: modelPath, versionName: nil), entities: entities)
    }
}
