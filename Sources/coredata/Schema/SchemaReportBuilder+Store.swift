import CoreDataModel
import CoreDataSQLiteFormat
import Foundation

extension SchemaReportBuilder {
    static func storeReport(url: URL, modelPath: String?) throws -> SchemaReport {
        throw CommandFailure("\(url.path): reading SQLite stores arrives with the SQLite layer")
    }
}
