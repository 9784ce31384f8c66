import CoreDataModel
import CoreDataSQLiteFormat
import Foundation

extension SchemaReportBuilder {
    /// A store's report: its metadata, the model it is read with (given, cached or inferred), the hash comparison,
    /// and row counts per entity.
    static func storeReport(url: URL, modelPath: String?) throws -> SchemaReport {
        let store = try SQLiteStoreFile(path: url.path)
        StoreNotes.report(store.recoveryNote)
        let storeHashes = store.metadata.versionHashes
        var notes: [String] = []
        let model: NSManagedObjectModel
        let modelSource: String
        var versionName: String?
        var inferredNames: Set<String> = []
        if let modelPath {
            let versions = try ModelLoader.loadVersions(at: URL(fileURLWithPath: modelPath))
            let chosen = versions.version(matchingStoreHashes: storeHashes)
            (versionName, model) = (chosen.name, chosen.model)
            notes.append(versionNote(versions: versions, storeHashes: storeHashes, store: store))
            modelSource = "modelFile"
        } else if let cached = try store.cachedModel() {
            model = cached
            modelSource = "modelCache"
        } else {
            let inference = try ModelInference(store: store).infer()
            model = inference.model
            notes += inference.notes
            inferredNames = inference.namesOfUnknownCase
            modelSource = "inferred"
        }
        let layout = StoreLayout(model: model)
        notes += numberingNotes(store: store, layout: layout)
        let counts = try store.rowCountsByEntityNumber(layout: layout)
        let modelHashes = model.entityVersionHashesByName
        let mismatched = Set(storeHashes.keys).union(modelHashes.keys)
            .filter { storeHashes[$0] != modelHashes[$0] }.sorted()
        let summary = SchemaReport.StoreSummary(
            type: store.metadata.storeType, uuid: store.metadata.uuid, frameworkVersion: store.metadata.frameworkVersion,
            journalMode: store.journalMode, modelSource: modelSource,
            hashesMatchModel: storeHashes.isEmpty || modelSource == "inferred" ? nil : mismatched.isEmpty,
            mismatchedEntities: modelSource == "inferred" ? [] : mismatched, notes: notes)
        return SchemaReport(
            kind: "store", path: url.path, store: summary,
            model: modelSummary(model, path: modelPath, versionName: versionName),
            entities: entities(of: model, layout: layout, counts: counts, storeHashes: storeHashes,
                               inferredNames: inferredNames))
    }

    /// Which version of a model package wrote the store, or what differs from the current version when none did.
    private static func versionNote(versions: ModelVersionSet, storeHashes: [String: Data], store: SQLiteStoreFile) -> String {
        let current = versions.currentVersionName
        guard let index = versions.indexOfVersion(matchingStoreHashes: storeHashes) else {
            let difference = ModelDifference(storeHashes: storeHashes, storeModel: try? store.cachedModel(), model: versions.currentModel)
            return "no version of the model matches the store; against the current version \(current): \(difference)"
        }
        let name = versions.versions[index].name
        let position = "version \(index + 1) of \(versions.versions.count)"
        if index == versions.currentIndex { return "the store is at the current version \(name) (\(position))" }
        if index > versions.currentIndex { return "the store is at version \(name) (\(position)), after the current version \(current)" }
        return "the store is at version \(name) (\(position)); the current version is \(current): coredata migrate brings it there"
    }

    /// Entities whose number the model and `Z_PRIMARYKEY` give different names (an entity renamed by a
    /// migration keeps its old `Z_NAME`), or that only one side has.
    private static func numberingNotes(store: SQLiteStoreFile, layout: StoreLayout) -> [String] {
        var notes: [String] = []
        let modelNames = Dictionary(uniqueKeysWithValues: layout.numbering.numbers.map { ($0.value, $0.key) })
        for entry in store.primaryKeys where entry.entityNumber < 16000 {
            guard let name = modelNames[entry.entityNumber] else {
                notes.append("Z_PRIMARYKEY lists entity \(entry.entityNumber) (\(entry.name)), which the model does not have")
                continue
            }
            if name != entry.name {
                notes.append("Z_PRIMARYKEY names entity \(entry.entityNumber) \"\(entry.name)\"; the model calls it \"\(name)\" (a rename kept by migration)")
            }
        }
        let history = store.primaryKeys.filter { $0.entityNumber >= 16000 }.map(\.name)
        if !history.isEmpty {
            notes.append("persistent history tracking tables present (\(history.joined(separator: ", ")))")
        }
        return notes
    }
}
