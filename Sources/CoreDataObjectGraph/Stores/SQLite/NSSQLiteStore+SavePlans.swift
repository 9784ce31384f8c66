import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// The plans of the save path: for each entity the SQL of its `INSERT`, `UPDATE`s and `DELETE`, prepared once, and
/// how each slot of an object binds its columns. Building the SQL and looking columns up by name is done once per
/// entity instead of once per row.
extension NSSQLiteStore {
    /// The `INSERT` of `entity`'s rows: `Z_PK`, `Z_ENT`, `Z_OPT`, then each stored slot's columns in slot order.
    func insertPlan(for entity: NSEntityDescription, slots: PropertySlots, writer: SaveWriter) throws -> InsertPlan? {
        if let plan = writer.cache.insertPlans[ObjectIdentifier(entity)] { return plan }
        guard let table = layout.table(forEntity: entity.entityName), let number = layout.numbering[entity.entityName] else { return nil }
        var columns: [String] = []
        var bindings: [SlotBinding] = []
        for (slot, property) in slots.properties.enumerated() {
            guard let (binding, slotColumns) = slotBinding(slot: slot, property: property, entity: entity, orderKey: true) else { continue }
            bindings.append(binding)
            columns += slotColumns
        }
        let sql = builder.insert(into: table, columns: columns)
        let plan = InsertPlan(row: RowWritePlan(sql: sql, statement: try writer.statement(sql), bindings: bindings), entityNumber: Int64(number))
        writer.cache.insertPlans[ObjectIdentifier(entity)] = plan
        return plan
    }

    /// The `UPDATE` of `slots` of `entity`'s rows, with optimistic locking: the changed columns and `Z_OPT + 1`,
    /// `WHERE Z_PK = ? AND Z_OPT = ?`. A to-one slot in `withoutOrderKey` leaves its order key column alone.
    func updatePlan(for entity: NSEntityDescription, slots changed: [Int], withoutOrderKey: [Int], objectSlots: PropertySlots,
                    writer: SaveWriter) throws -> RowWritePlan? {
        let key = UpdatePlanKey(entity: ObjectIdentifier(entity), slots: changed, withoutOrderKey: withoutOrderKey)
        if let plan = writer.cache.updatePlans[key] { return plan }
        guard let table = layout.table(forEntity: entity.entityName) else { return nil }
        var columns: [String] = []
        var bindings: [SlotBinding] = []
        for slot in changed {
            let property = objectSlots.properties[slot]
            guard let (binding, slotColumns) = slotBinding(slot: slot, property: property, entity: entity,
                                                           orderKey: !withoutOrderKey.contains(slot)) else { continue }
            bindings.append(binding)
            columns += slotColumns
        }
        let sql = builder.update(table, columns: columns)
        let plan = RowWritePlan(sql: sql, statement: try writer.statement(sql), bindings: bindings)
        writer.cache.updatePlans[key] = plan
        return plan
    }

    /// The `DELETE` of `entity`'s rows with optimistic locking, and of the join-table rows that hold their keys.
    func deletePlan(for entity: NSEntityDescription, writer: SaveWriter) throws -> DeletePlan? {
        if let plan = writer.cache.deletePlans[ObjectIdentifier(entity)] { return plan }
        guard let table = layout.table(forEntity: entity.entityName) else { return nil }
        let sql = builder.delete(from: table)
        let joinDeletes = try builder.joinRowDeletes(entityName: entity.entityName).map { (sql: $0, statement: try writer.statement($0)) }
        let plan = DeletePlan(sql: sql, statement: try writer.statement(sql), joinDeletes: joinDeletes)
        writer.cache.deletePlans[ObjectIdentifier(entity)] = plan
        return plan
    }

    /// How a slot binds, and its columns: none for derived attributes (triggers maintain them) and unmapped slots.
    private func slotBinding(slot: Int, property: NSPropertyDescription, entity: NSEntityDescription,
                             orderKey: Bool) -> (SlotBinding, [String])? {
        guard let mapped = layout.columns(forProperty: property.name, ofEntity: entity.entityName) else { return nil }
        if let attribute = property as? NSAttributeDescription {
            if attribute is NSDerivedAttributeDescription { return nil }
            return (.attribute(slot: slot, attribute), [mapped.value])
        }
        guard let relationship = property as? NSRelationshipDescription else { return nil }
        let orderKeyColumn = orderKey ? mapped.orderKey : nil
        return (.toOne(slot: slot, relationship, entityNumber: mapped.entityNumber != nil, orderKey: orderKeyColumn != nil),
                [mapped.value] + [mapped.entityNumber, orderKeyColumn].compactMap { $0 })
    }

    /// Binds the columns of `plan`'s slots for `object` from parameter `first` on; returns the next parameter.
    func bindSlots(of plan: RowWritePlan, for object: NSManagedObject, from first: Int, writer: SaveWriter,
                   resolve: (NSManagedObjectID) -> NSManagedObjectID, files: inout [URL]) throws -> Int {
        let values = object.storedValues ?? []
        let statement = plan.statement
        if let slots = plan.directSlots {
            var index = first
            for (position, slot) in slots.enumerated() {
                defer { index += 1 }
                guard slot < values.count else {
                    try writer.bind(.null, at: index, of: statement)
                    continue
                }
                if try writer.bindDirect(values[slot], at: index, of: statement) { continue }
                guard case .attribute(_, let attribute) = plan.bindings[position] else { continue }
                try writer.bind(try encode(values[slot], for: attribute, files: &files), at: index, of: statement)
            }
            return index
        }
        var index = first
        for binding in plan.bindings {
            switch binding {
            case .attribute(let slot, let attribute):
                let value = slot < values.count ? try encode(values[slot], for: attribute, files: &files) : .null
                try writer.bind(value, at: index, of: statement)
                index += 1
            case .toOne(let slot, let relationship, let hasEntityNumber, let hasOrderKey):
                guard slot < values.count, case .toOne(let target) = values[slot] else {
                    for _ in 0..<binding.parameterCount {
                        try writer.bind(.null, at: index, of: statement)
                        index += 1
                    }
                    continue
                }
                let id = resolve(target)
                try writer.bind(.integer(id.primaryKey), at: index, of: statement)
                index += 1
                if hasEntityNumber {
                    try writer.bind(.integer(Int64(layout.numbering[id.entity.entityName] ?? 0)), at: index, of: statement)
                    index += 1
                }
                if hasOrderKey {
                    try writer.bind(orderKey(of: object, in: relationship, owner: target), at: index, of: statement)
                    index += 1
                }
            }
        }
        return index
    }

    /// The 1-based position of `object` in its owner's ordered inverse, NULL when the owner is not registered.
    private func orderKey(of object: NSManagedObject, in relationship: NSRelationshipDescription, owner id: NSManagedObjectID) -> SQLiteValue {
        guard let inverse = relationship.inverseRelationship, let owner = object.managedObjectContext?.registeredObject(for: id) else {
            return .null
        }
        let position = owner.objectIDs(forRelationshipNamed: inverse.name).firstIndex(of: object.objectID) ?? 0
        return .integer(Int64(position + 1))
    }

    /// Whether an update of `object`'s to-one `slot` would write its order key: not when the owner is not registered,
    /// whose position is unknown (the column keeps its value).
    func writesOrderKey(of object: NSManagedObject, slot: Int) -> Bool {
        guard let relationship = object.slots.properties[slot] as? NSRelationshipDescription,
              layout.columns(forProperty: relationship.name, ofEntity: object.entity.entityName)?.orderKey != nil,
              let values = object.storedValues, slot < values.count, case .toOne(let target) = values[slot] else { return true }
        return relationship.inverseRelationship != nil && object.managedObjectContext?.registeredObject(for: target) != nil
    }
}
