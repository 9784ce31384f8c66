import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

extension FuzzBodies {
    /// A fresh directory per process for the stores the inference target writes.
    nonisolated(unsafe) private static var storeDirectory: URL?
    nonisolated(unsafe) private static var storeCounter = 0

    /// Builds the store ``SchemaRecipe`` describes, opens it as a Core Data store, infers its model, and lays the
    /// model out again, as `coredata` does for a store without a model cache.
    static func modelInference(_ input: [UInt8]) -> FuzzOutcome {
        let directory = storeDirectory ?? {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-fuzz-\(getpid())")
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            storeDirectory = url
            return url
        }()
        storeCounter += 1
        let path = directory.appendingPathComponent("store-\(storeCounter % 2).sqlite").path
        try? FileManager.default.removeItem(atPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try SchemaRecipe(input).write(to: path)
        } catch {
            return .rejected  // the recipe's file could not be created: nothing to infer
        }
        do {
            let store = try SQLiteStoreFile(path: path)
            let result = try ModelInference(store: store).infer()
            exercise(result.model)
            return .accepted
        } catch {
            return .rejected  // typed: StoreFormatError
        }
    }
}
