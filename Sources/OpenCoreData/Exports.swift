// The umbrella module only re-exports, as swift-nio's `NIO` does: `import OpenCoreData` gives Core Data's API.
@_exported import CoreDataMacros
@_exported import CoreDataModel
@_exported import CoreDataObjectGraph
@_exported import CoreDataSQLiteFormat
@_exported import KeyValueCoding
@_exported import Predicates
@_exported import UndoManagement

// Foundation on Linux declares these classes without format strings or key-value coding. Scoped imports win over
// whole-module ones, so client code importing both Foundation and OpenCoreData gets ours, in type positions too.
@_exported import class Predicates.NSPredicate
@_exported import class Predicates.NSComparisonPredicate
@_exported import class Predicates.NSCompoundPredicate
@_exported import class Predicates.NSExpression
@_exported import class Predicates.NSSortDescriptor

// Apple's `import CoreData` brings Foundation with it, so Core Data code often imports nothing else (`Date`, `UUID`,
// `NSError`, `NSDictionary` in files that say only `import CoreData`). The scoped imports above still win.
@_exported import Foundation
