import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess

/// One entity's objects of one store, as `diff` compares them: each object's values by property name, in text that
/// compares exactly (attributes as printed, relationships as the primary keys they lead to), keyed by its primary
/// key or by the text of a chosen attribute.
struct EntitySnapshot {
    struct Object {
        var primaryKey: Int64
        var label: String
        var values: [String: String]
        /// The values as JSON-ready objects, for `--format json`.
        var json: [String: Any]
    }

    var objects: [String: Object] = [:]
    /// Keys that more than one object holds: `--key` must be unique to match objects.
    var duplicateKeys: [String] = []

    /// Reads every object of `entity` itself (not its subentities, which are compared on their own), a batch at a
    /// time, with the properties `properties` names.
    init(session: StoreSession, entity: NSEntityDescription, properties: [String], key: String?) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
        request.includesSubentities = false
        request.fetchBatchSize = 1_000
        let labelKey = EntityLabel.attributeName(for: entity)
        try session.context.performAndWait {
            let results = try session.context.fetchBatched(request)
            var batch = 0
            while true {
                let objects = try results.objects(inBatch: batch)
                for object in objects {
                    var values: [String: String] = [:]
                    var json: [String: Any] = [:]
                    for name in properties {
                        let value = try KeyPathValues.value(of: object, forKeyPath: name)
                        values[name] = Self.text(value)
                        json[name] = Self.json(value)
                    }
                    let primaryKey = object.objectID.primaryKey
                    let matchKey = key.map { values[$0] ?? "" } ?? "p\(primaryKey)"
                    if self.objects[matchKey] != nil { duplicateKeys.append(matchKey) }
                    let labelValue = labelKey.flatMap { object.value(forKey: $0) as? String }
                    self.objects[matchKey] = Object(primaryKey: primaryKey, label: labelValue.flatMap { $0.isEmpty ? nil : $0 } ?? "\(entity.entityName) p\(primaryKey)",
                                                    values: values, json: json)
                }
                if objects.count < results.batchSize { break }
                batch += 1
            }
        }
    }

    /// Text that is equal exactly when the values are: relationships by the primary keys they reach.
    static func text(_ value: Any?) -> String {
        switch value {
        case let object as NSManagedObject: return "p\(object.objectID.primaryKey)"
        case let set as Set<NSManagedObject>: return "[" + set.map(\.objectID.primaryKey).sorted().map { "p\($0)" }.joined(separator: ",") + "]"
        case let array as [NSManagedObject]: return "[" + array.map { "p\($0.objectID.primaryKey)" }.joined(separator: ",") + "]"
        case let data as Data: return data.base64EncodedString()
        case nil: return "nil"
        default: return ValueFormatting.text(value)
        }
    }

    static func json(_ value: Any?) -> Any {
        switch value {
        case let object as NSManagedObject: return "p\(object.objectID.primaryKey)"
        case let set as Set<NSManagedObject>: return set.map(\.objectID.primaryKey).sorted().map { "p\($0)" }
        case let array as [NSManagedObject]: return array.map { "p\($0.objectID.primaryKey)" }
        default: return ValueFormatting.json(value)
        }
    }
}
