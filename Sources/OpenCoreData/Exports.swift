// The umbrella module only re-exports, as swift-nio's `NIO` does: `import OpenCoreData` gives Core Data's API.
@_exported import CoreDataModel
@_exported import CoreDataObjectGraph
@_exported import CoreDataSQLiteFormat
@_exported import KeyValueCoding
@_exported import Predicates
