import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// Numbers read through `value(forKey:)` and `NSExpression.expressionValue` cast as Apple's `NSNumber` does: an
/// Integer 16 attribute reads `as? Int16`, `as? Int` and `as? Double`, a Boolean `as? Bool`, a Decimal as an
/// `NSDecimalNumber`; arithmetic in an expression gives a number that casts to `Int` when it is whole.
struct NumberBridgingTests {
    private static func model() -> NSManagedObjectModel {
        let reading = NSEntityDescription(name: "Reading")
        reading.setProperties([
            NSAttributeDescription(name: "small", type: .integer16AttributeType),
            NSAttributeDescription(name: "medium", type: .integer32AttributeType),
            NSAttributeDescription(name: "large", type: .integer64AttributeType),
            NSAttributeDescription(name: "ratio", type: .doubleAttributeType),
            NSAttributeDescription(name: "weight", type: .floatAttributeType),
            NSAttributeDescription(name: "flag", type: .booleanAttributeType),
            NSAttributeDescription(name: "price", type: .decimalAttributeType),
            NSAttributeDescription(name: "label", type: .stringAttributeType),
        ])
        return NSManagedObjectModel(entities: [reading])
    }

    /// A saved reading, fetched back in a fresh context so its values come from the store.
    private func fetchedReading() throws -> (NSManagedObject, NSManagedObjectContext, NSPersistentStoreCoordinator) {
        let model = Self.model()
        let url = try TemporaryDirectory.make().appendingPathComponent("Readings.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = coordinator
        try writer.performAndWait {
            let reading = NSEntityDescription.insertNewObject(forEntityName: "Reading", into: writer)
            reading.setValue(Int16(12), forKey: "small")
            reading.setValue(Int32(70_000), forKey: "medium")
            reading.setValue(Int64(5_000_000_000), forKey: "large")
            reading.setValue(2.0, forKey: "ratio")
            reading.setValue(Float(1.5), forKey: "weight")
            reading.setValue(true, forKey: "flag")
            reading.setValue(Decimal(string: "9.99")!, forKey: "price")
            reading.setValue("a", forKey: "label")
            try writer.save()
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        let object = try reader.performAndWait {
            try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Reading")).first)
        }
        return (object, reader, coordinator)
    }

    @Test func integerAttributesCastToEveryIntegerTypeThatHoldsTheValue() throws {
        let (reading, context, _) = try fetchedReading()
        context.performAndWait {
            #expect(reading.value(forKey: "small") as? Int16 == 12)
            #expect(reading.value(forKey: "small") as? Int == 12)
            #expect(reading.value(forKey: "small") as? Int64 == 12)
            #expect(reading.value(forKey: "small") as? Double == 12)
            #expect(reading.value(forKey: "small") as? NSNumber == NSNumber(value: 12))
            #expect(reading.value(forKey: "medium") as? Int32 == 70_000)
            // As NSNumber: a value out of the target type's range does not cast.
            #expect(reading.value(forKey: "medium") as? Int16 == nil)
            #expect(reading.value(forKey: "large") as? Int == 5_000_000_000)
            #expect(reading.value(forKey: "large") as? Int32 == nil)
        }
    }

    @Test func floatingPointBooleanAndDecimalAttributesCastAsNSNumberDoes() throws {
        let (reading, context, _) = try fetchedReading()
        context.performAndWait {
            #expect(reading.value(forKey: "ratio") as? Double == 2.0)
            #expect(reading.value(forKey: "ratio") as? Int == 2)
            #expect(reading.value(forKey: "weight") as? Float == 1.5)
            #expect(reading.value(forKey: "weight") as? Double == 1.5)
            #expect(reading.value(forKey: "weight") as? Int == nil)
            #expect(reading.value(forKey: "flag") as? Bool == true)
            #expect(reading.value(forKey: "flag") as? Int == 1)
            #expect((reading.value(forKey: "price") as? NSDecimalNumber)?.decimalValue == Decimal(string: "9.99"))
            #expect(reading.value(forKey: "price") as? Decimal == Decimal(string: "9.99"))
            #expect(reading.value(forKey: "label") as? String == "a")
        }
    }

    @Test func bridgedNumbersCanBeAssignedBackAndTypedReadsStayTyped() throws {
        let (reading, context, _) = try fetchedReading()
        try context.performAndWait {
            // The idiom of copying a value from one attribute to another through KVC.
            reading.setValue(reading.value(forKey: "small"), forKey: "medium")
            #expect(reading.value(forKey: "medium") as? Int32 == 12)
            reading.setValue(NSNumber(value: 3), forKey: "flag")
            #expect(reading.value(forKey: "flag") as? Bool == true)
            #expect(reading.value(forKey: "small", as: Int16.self) == 12)
            #expect(reading.value(forKey: "ratio", as: Double.self) == 2.0)
            try context.save()
        }
    }

    @Test func expressionValuesAreNumbersThatCastLikeNSNumber() {
        let whole = NSExpression(format: "4 + 5 - 2**3").expressionValue(with: nil, context: nil)
        #expect(whole as? Int == 1)
        #expect(whole as? Double == 1.0)
        let fraction = NSExpression(format: "7 / 2").expressionValue(with: nil, context: nil)
        #expect(fraction as? Double == 3.5)
        #expect(fraction as? Int == nil)
        let integer = NSExpression(format: "3 * 4").expressionValue(with: nil, context: nil)
        #expect(integer as? Int16 == 12)
        let sum = NSExpression(format: "sum:({1, 2, 3})").expressionValue(with: nil, context: nil)
        #expect(sum as? Int == 6)
        let bool = NSExpression(forConstantValue: true).expressionValue(with: nil, context: nil)
        #expect(bool as? Bool == true)
    }

    @Test func keyPathExpressionsOnManagedObjectsGiveCastableNumbers() throws {
        let (reading, context, _) = try fetchedReading()
        context.performAndWait {
            let value = NSExpression(forKeyPath: "small").expressionValue(with: reading, context: nil)
            #expect(value as? Int16 == 12)
            #expect(value as? Int == 12)
        }
    }
}
