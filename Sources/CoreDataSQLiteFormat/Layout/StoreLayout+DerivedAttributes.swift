import CoreDataModel
import SQLiteDatabase

/// The triggers Core Data creates to keep derived attributes current (store format reference §9).
///
/// Only count derivations over a to-many relationship with a to-one inverse (`count:(pages)`) are known from real
/// stores; other derivations get no trigger, which docs/DEVIATIONS.md records.
extension StoreLayout {
    public func derivedAttributeTriggers(model: NSManagedObjectModel) -> [String] {
        var statements: [String] = []
        for entityName in numbering.namesInNumberOrder {
            guard let entity = model.entitiesByName[entityName] else { continue }
            // An entity re-declaring an inherited derived attribute shares its ancestor's column and triggers.
            let inherited = Set(entity.superentity?.allProperties.map(\.name) ?? [])
            for case let derived as NSDerivedAttributeDescription in entity.ownProperties where !inherited.contains(derived.name) {
                statements += countTriggers(for: derived, of: entity)
            }
        }
        return statements
    }

    private func countTriggers(for derived: NSDerivedAttributeDescription, of entity: NSEntityDescription) -> [String] {
        let format = derived.derivationExpressionFormat
        guard format.hasPrefix("count:("), format.hasSuffix(")") else { return [] }
        let key = String(format.dropFirst("count:(".count).dropLast())
        guard let relationship = entity.relationshipsByName[key], relationship.isToMany,
              let inverse = relationship.inverseRelationship, !inverse.isToMany,
              let destination = relationship.destinationEntity, let inverseOwner = inverse.entity,
              let sourceTable = table(forEntity: entity.entityName)?.name,
              let destinationTable = table(forEntity: destination.entityName)?.name,
              let valueColumn = columns(forProperty: derived.name, ofEntity: entity.entityName)?.value,
              let keyColumn = columns(forProperty: inverse.name, ofEntity: inverseOwner.entityName)?.value
        else { return [] }
        let prefix = "Z_DA_\(destinationTable)_\(entity.entityName)_\(derived.name)"
        func notify(_ row: String, function: String = "NSCoreDataDATriggerUpdatedAffectedObjectValue") -> String {
            "SELECT \(function)('\(sourceTable)', Z_ENT, Z_PK, '\(derived.name)', \(valueColumn)) FROM \(sourceTable) WHERE Z_PK = \(row); END"
        }
        return [
            "CREATE TRIGGER \(prefix)_PARAMETER_INSERT AFTER INSERT ON \(destinationTable) FOR EACH ROW WHEN (NEW.\(keyColumn) NOT NULL) BEGIN UPDATE \(sourceTable) SET \(valueColumn) = IFNULL(\(valueColumn), 0) + 1 WHERE Z_PK = NEW.\(keyColumn); \(notify("NEW.\(keyColumn)"))",
            "CREATE TRIGGER \(prefix)_PARAMETER_UPDATE_INCREMENT AFTER UPDATE OF \(keyColumn) ON \(destinationTable) FOR EACH ROW WHEN (NEW.\(keyColumn) NOT NULL) BEGIN UPDATE \(sourceTable) SET \(valueColumn) = \(valueColumn) + 1 WHERE Z_PK = NEW.\(keyColumn); \(notify("NEW.\(keyColumn)"))",
            "CREATE TRIGGER \(prefix)_PARAMETER_UPDATE_DECREMENT AFTER UPDATE OF \(keyColumn) ON \(destinationTable) FOR EACH ROW WHEN (OLD.\(keyColumn) NOT NULL) BEGIN UPDATE \(sourceTable) SET \(valueColumn) = \(valueColumn) - 1 WHERE Z_PK = OLD.\(keyColumn); \(notify("OLD.\(keyColumn)"))",
            "CREATE TRIGGER \(prefix)_PARAMETER_DELETE AFTER DELETE ON \(destinationTable) FOR EACH ROW WHEN (OLD.\(keyColumn) NOT NULL) BEGIN UPDATE \(sourceTable) SET \(valueColumn) = \(valueColumn) - 1 WHERE Z_PK = OLD.\(keyColumn); \(notify("OLD.\(keyColumn)"))",
            "CREATE TRIGGER Z_DA_\(sourceTable)_\(entity.entityName)_\(derived.name)_SOURCE_INSERT AFTER INSERT ON \(sourceTable) FOR EACH ROW BEGIN UPDATE \(sourceTable) SET \(valueColumn) = (SELECT IFNULL(COUNT(\(keyColumn)), 0) FROM \(destinationTable) WHERE \(keyColumn) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; \(notify("NEW.Z_PK", function: "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"))",
        ]
    }
}

/// The SQL functions Core Data's derived-attribute triggers call (`NSCoreDataDATrigger…`). Without them every
/// write to a table with such triggers fails with "no such function"; the values they report serve Apple's change
/// tracking only, so they return NULL.
public enum DerivedAttributeFunctions {
    public static let names = ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"]

    public static func register(on connection: Connection) throws(SQLiteError) {
        for name in names {
            try connection.createFunction(name: name, argumentCount: -1, deterministic: false) { _ in .null }
        }
    }
}
