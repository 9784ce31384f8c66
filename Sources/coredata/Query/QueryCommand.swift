import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess
import KeyValueCoding

/// `coredata query STORE ENTITY [PREDICATE]`: fetch objects and print their values, streaming in batches.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Fetch objects of an entity and print their values.",
        discussion: """
            Rows stream in batches, so printing a million objects keeps memory flat. Keys may follow relationships \
            (--keys name,chef.name,ingredients.@count); attributes, key paths through to-one relationships and \
            @count, @sum, @avg, @min, @max of a to-many relationship's numbers are read by the store's SQL, without \
            loading objects. A relationship prints as its destination's label (its \
            name, title, displayName, unique or first string attribute, else "Entity pN"); JSON gives \
            {"uri": …, "label": …}. Examples:
              coredata query Recipes.sqlite Recipe 'minutes < 30' --sort -rating,name --keys name,chef.name
              coredata query Recipes.sqlite Chef --format jsonl
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entity to fetch.", completion: .custom(StoreCompletion.entities)) var entity: String
    @Argument(help: "A predicate, in NSPredicate format.") var predicate: String?
    @OptionGroup var predicateInputs: PredicateInputs
    @Option(parsing: .unconditional, help: "Sort keys, comma separated; a leading - sorts descending.",
            completion: .custom(StoreCompletion.keyPaths)) var sort: String?
    @Option(help: "At most this many objects.") var limit: Int?
    @Option(help: "Skip this many objects first.") var offset: Int?
    @Option(help: "Key paths to print, comma separated (default: attributes and to-one relationships).",
            completion: .custom(StoreCompletion.keyPaths)) var keys: String?
    @OptionGroup var output: OutputOptions
    @Option(help: "Relationship key paths to prefetch, comma separated.") var prefetch: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if let offset, offset < 0 { throw ValidationError("--offset must not be negative") }
    }

    func run() throws {
        global.apply()
        let session = try storeOptions.open()
        let entityDescription = try session.entity(named: entity)
        let keyPaths = keys.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? FetchOptions.defaultKeys(for: entityDescription)
        for keyPath in keyPaths { try session.validateKeyPath(keyPath, from: entityDescription) }
        let prefetchPaths = prefetch.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        for keyPath in prefetchPaths { try session.validateKeyPath(keyPath, from: entityDescription) }
        let request = NSFetchRequest<NSManagedObject>(entityName: entityDescription.entityName)
        request.predicate = try predicateInputs.predicate(predicate)
        request.sortDescriptors = try FetchOptions.sortDescriptors(sort, entity: entityDescription, session: session)
        request.fetchLimit = limit ?? 0
        request.fetchOffset = offset ?? 0
        request.fetchBatchSize = 500
        let writer = ResultWriter(columns: keyPaths, settings: output.settings)
        try session.context.performAndWait {
            // The SQL path reads the SQLite file (and checks dangling keys on it); other stores take the general one.
            if session.coordinator.persistentStores.first?.type == NSSQLiteStoreType,
               let rows = DictionaryRows(keyPaths: keyPaths, entity: entityDescription, storeIdentifier: session.storeIdentifier,
                                          storePath: session.path) {
                try rows.forEachRow(request, context: session.context) { writer.write($0) }
            } else {
                try writeObjects(request, keyPaths: keyPaths, prefetchPaths: prefetchPaths, context: session.context, writer: writer)
            }
        }
        writer.finish()
    }

    /// The general path: objects fetched in batches, each key path read through key-value coding.
    private func writeObjects(_ request: NSFetchRequest<NSManagedObject>, keyPaths: [String], prefetchPaths: [String],
                              context: NSManagedObjectContext, writer: ResultWriter) throws {
        let results = try context.fetchBatched(request)
        var batch = 0
        while true {
            let objects = try results.objects(inBatch: batch)
            if !prefetchPaths.isEmpty { try context.prefetchRelationships(prefetchPaths, for: objects) }
            for object in objects {
                writer.write(try keyPaths.map { CellValue(try KeyPathValues.value(of: object, forKeyPath: $0)) })
            }
            if objects.count < results.batchSize { break }
            batch += 1
        }
    }
}
