import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import XCTest

/// `migratePersistentStore(_:to:options:withType:)`: every object, value, relationship (with its order) and the app's
/// metadata reach the new store, which replaces the old one in the coordinator.
final class StoreMigrationTests: XCTestCase {
    /// Everything a reader can see in the store, as text: each object's values and relationships by name.
    private func dump(_ coordinator: NSPersistentStoreCoordinator) throws -> [String] {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            var lines: [String] = []
            for entity in coordinator.managedObjectModel.entities.sorted(by: { $0.entityName < $1.entityName }) {
                for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity.entityName)) {
                    var fields: [String] = []
                    for name in entity.attributesByName.keys.sorted() where !(entity.attributesByName[name]!.isTransient) {
                        fields.append("\(name)=\(object.value(forKey: name).map { "\($0)" } ?? "nil")")
                    }
                    for (name, relationship) in entity.relationshipsByName.sorted(by: { $0.key < $1.key }) {
                        func label(_ target: NSManagedObject) -> String {
                            "\(target.entity.entityName):\((target.value(forKey: target.entity.attributesByName["name"] != nil ? "name" : target.entity.attributesByName["label"] != nil ? "label" : "caption")).map { "\($0)" } ?? "nil")"
                        }
                        if !relationship.isToMany {
                            fields.append("\(name)->\((object.value(forKey: name) as? NSManagedObject).map(label) ?? "nil")")
                        } else if relationship.isOrdered {
                            fields.append("\(name)->[\(object.mutableOrderedSetValue(forKey: name).allObjects.map(label).joined(separator: ","))]")
                        } else {
                            fields.append("\(name)->{\(object.mutableSetValue(forKey: name).allObjects.map(label).sorted().joined(separator: ","))}")
                        }
                    }
                    lines.append("\(entity.entityName) " + fields.joined(separator: " "))
                }
            }
            return lines.sorted()
        }
    }

    func testMigrateCopiesEveryObjectValueRelationshipAndTheAppsMetadata() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 4, recipes: 12)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var metadata = coordinator.metadata(for: store)
        metadata["AppSchemaNote"] = "kept across migration"
        coordinator.setMetadata(metadata, for: store)
        try context.performAndWait {
            // A many-to-many relationship and a value stored outside the database, which the SQL-built store lacks.
            let recipes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            for label in ["quick", "spicy", "cheap"] {
                let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
                tag.setValue(label, forKey: "label")
                for recipe in recipes where (recipe.value(forKey: "name") as? String ?? "").count % 3 == label.count % 3 {
                    tag.mutableSetValue(forKey: "recipes").add(recipe)
                }
            }
            let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
            photo.setValue("plated", forKey: "caption")
            photo.setValue(Data((0..<200_000).map { UInt8($0 % 251) }), forKey: "imageData")
            photo.setValue(recipes.first, forKey: "recipe")
            try context.save()
        }
        let before = try dump(coordinator)
        XCTAssertEqual(before.count, 4 + 12 + 18 + 3 + 1, "chefs, recipes, ingredients, tags and the photo")

        let destination = try TemporaryDirectory.make().appendingPathComponent("Moved/Recipes-copy.sqlite")
        let migrated = try coordinator.migratePersistentStore(store, to: destination, options: nil, withType: NSSQLiteStoreType)

        XCTAssertEqual(coordinator.persistentStores.count, 1)
        XCTAssertTrue(coordinator.persistentStores.first === migrated, "the new store replaces the old one in the coordinator")
        XCTAssertEqual(migrated.url, destination)
        XCTAssertNotEqual(migrated.identifier, store.identifier)
        XCTAssertEqual(try dump(coordinator), before)
        XCTAssertEqual(coordinator.metadata(for: migrated)["AppSchemaNote"] as? String, "kept across migration")
        XCTAssertEqual(coordinator.metadata(for: migrated)[NSStoreUUIDKey] as? String, migrated.identifier)
        let supportFiles = try FileManager.default.contentsOfDirectory(
            atPath: destination.deletingLastPathComponent().appendingPathComponent(".Recipes-copy_SUPPORT/_EXTERNAL_DATA").path)
        XCTAssertEqual(supportFiles.count, 1, "the photo is stored outside the new database too")

        // The old file is left as it was, readable on its own.
        let old = NSPersistentStoreCoordinator(managedObjectModel: model)
        try old.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        XCTAssertEqual(try dump(old), before)
    }

    func testMigrateNeverOverwritesAFileAndLeavesTheCoordinatorAsItWas() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 2)
        let (occupied, _) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 3)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertThrowsError(try coordinator.migratePersistentStore(store, to: occupied, options: nil, withType: NSSQLiteStoreType)) { error in
            XCTAssertTrue("\(error)".contains("already exists"), "\(error)")
        }
        XCTAssertThrowsError(try coordinator.migratePersistentStore(store, to: occupied.appendingPathExtension("x"), options: nil,
                                                                    withType: "NoSuchType"))
        XCTAssertTrue(coordinator.persistentStores.first === store)
        let other = NSPersistentStoreCoordinator(managedObjectModel: model)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try other.addPersistentStore(ofType: NSSQLiteStoreType, at: occupied, options: [NSReadOnlyPersistentStoreOption: true])
        reader.persistentStoreCoordinator = other
        XCTAssertEqual(try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Chef")) }, 3)
    }
}
