import Foundation
import OpenCoreData

/// Issue 19's memory target: a store of 1,000,000 objects (parents with nine children each) migrated with a mapping
/// model that SQL cannot run (a `FUNCTION` value expression, relationships through
/// `destinationInstancesForEntityMappingNamed:sourceInstances:`), so `NSMigrationManager` goes object by object in
/// Apple's three phases; the resident set must stay within 64 MB. It runs in a child process of this binary, as the
/// other memory workloads do, so the heap of earlier workloads does not count; the resident set is sampled at every
/// batch (`progressHandler`), and the kernel's high-water mark (`VmHWM`) is reported beside it.
enum MigrationMemory {
    static let childFlag = "--migration-memory-child"
    static let limitMB = 64.0
    static let childrenEach = 9

    struct Result: Codable {
        var objects: Int
        var baselineMB: Double
        /// The highest resident set sampled during the migration.
        var peakMB: Double
        /// The process's resident high-water mark at the end (`VmHWM`), start-up included.
        var highWaterMB: Double
        var seconds: Double
        var target: String
        var met: Bool
    }

    static func run(factory: StoreFactory, objects: Int) throws -> Result {
        let parents = max(1, objects / (childrenEach + 1))
        let store = try factory.familyStore(parents: parents, childrenEach: childrenEach)
        print("  migration memory · mapping model, \((parents * (childrenEach + 1)).formatted()) objects (child process)", terminator: "")
        fflush(nil)
        let line = try ChildProcess.lastLine(arguments: [childFlag, store.path, String(parents)], describing: "migration memory")
        print()
        return try JSONDecoder().decode(Result.self, from: Data(line.utf8))
    }

    /// Version 2 of the families model: each child gains an optional `tag`.
    static func destinationModel() -> NSManagedObjectModel {
        let parent = NSEntityDescription(name: "Parent")
        let child = NSEntityDescription(name: "Child")
        let number = NSAttributeDescription(name: "number", type: .integer64AttributeType)
        number.isIndexed = true
        let children = NSRelationshipDescription(name: "children", destinationEntityName: "Child")
        children.inverseRelationshipName = "parent"
        children.maxCount = 0
        children.deleteRule = .cascadeDeleteRule
        let toParent = NSRelationshipDescription(name: "parent", destinationEntityName: "Parent")
        toParent.inverseRelationshipName = "children"
        toParent.maxCount = 1
        toParent.deleteRule = .nullifyDeleteRule
        let tag = NSAttributeDescription(name: "tag", type: .stringAttributeType)
        tag.isOptional = true
        parent.setProperties([number, NSAttributeDescription(name: "name", type: .stringAttributeType), children])
        child.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), toParent, tag])
        return NSManagedObjectModel(entities: [child, parent])
    }

    static func mapping() -> NSMappingModel {
        func destinations(_ mapping: String, _ keyPath: String) -> NSExpression {
            NSExpression(format: "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"\(mapping)\", \(keyPath))")
        }
        let parents = NSEntityMapping(name: "ParentToParent", mappingType: .customEntityMappingType, sourceEntityName: "Parent",
                                      destinationEntityName: "Parent")
        parents.attributeMappings = [NSPropertyMapping(name: "number", valueExpression: NSExpression(format: "$source.number")),
                                     NSPropertyMapping(name: "name", valueExpression: NSExpression(format: "FUNCTION($source, \"valueForKeyPath:\", \"name\")"))]
        parents.relationshipMappings = [NSPropertyMapping(name: "children", valueExpression: destinations("ChildToChild", "$source.children"))]
        let children = NSEntityMapping(name: "ChildToChild", mappingType: .customEntityMappingType, sourceEntityName: "Child",
                                       destinationEntityName: "Child")
        children.attributeMappings = [NSPropertyMapping(name: "name", valueExpression: NSExpression(format: "$source.name")),
                                      NSPropertyMapping(name: "tag", valueExpression: NSExpression(format: "$source.parent.name"))]
        children.relationshipMappings = [NSPropertyMapping(name: "parent", valueExpression: destinations("ParentToParent", "$source.parent"))]
        return NSMappingModel(entityMappings: [parents, children])
    }

    /// The child's side: migrate, check the result, print one JSON line.
    static func child(arguments: [String]) throws {
        guard arguments.count == 2, let parents = Int(arguments[1]) else {
            throw RawSQLiteError(message: "usage: \(childFlag) <store> <parents>")
        }
        let source = URL(fileURLWithPath: arguments[0])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("Migrated.sqlite")
        let manager = NSMigrationManager(sourceModel: WriteModels.families(), destinationModel: destinationModel())
        let mapping = mapping()
        let baseline = ResidentMemory.residentMB()
        var peak = baseline
        manager.progressHandler = { _ in peak = max(peak, ResidentMemory.residentMB()) }
        let start = ContinuousClock.now
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination,
                                 destinationType: NSSQLiteStoreType)
        let seconds = (ContinuousClock.now - start).seconds
        peak = max(peak, ResidentMemory.residentMB())
        let database = try RawDatabase(path: destination.path)
        let children = parents * childrenEach
        let counts = [try database.scalar("SELECT count(*) FROM ZPARENT"), try database.scalar("SELECT count(*) FROM ZCHILD"),
                      try database.scalar("SELECT count(*) FROM ZCHILD WHERE ZPARENT IS NOT NULL AND ZTAG IS NOT NULL")]
        guard counts == [parents, children, children] else {
            throw RawSQLiteError(message: "migrated \(counts) (parents, children, linked and tagged children), expected \([parents, children, children])")
        }
        let result = Result(objects: parents + children, baselineMB: baseline, peakMB: peak, highWaterMB: highWaterMB(), seconds: seconds,
                            target: "peak resident ≤ \(Int(limitMB)) MB", met: peak <= limitMB)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    /// `VmHWM` of /proc/self/status, in MB.
    static func highWaterMB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }

    /// The line of the targets table.
    static func row(_ result: Result) -> String {
        "| \(result.target) | migration · mapping model, \(result.objects.formatted()) objects | ours · NSMigrationManager | "
            + String(format: "peak %.1f MB (baseline %.1f MB, high-water %.1f MB, %.0f s)", result.peakMB, result.baselineMB,
                     result.highWaterMB, result.seconds) + " | \(result.met ? "yes" : "**no**") |"
    }
}
