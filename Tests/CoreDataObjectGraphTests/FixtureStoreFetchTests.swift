import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Every Apple store reads, through the public API, the same rows and values as hand-written SQL with
/// hand-decoded values.
@Suite("Fetching Apple stores", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-store fetch tests skipped"))
struct FixtureStoreFetchTests {
    static let storesWithCache = Fixtures.allStores().filter { !$0.contains("coredatabooks") }

    @Test("objects equal hand-decoded rows", arguments: storesWithCache)
    func everyEntityMatchesHandWrittenSQL(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        let model = try #require(try SQLiteStoreFile(path: copy.path).cachedModel())
        let stack = try TestStack(storeURL: copy, model: model)
        let raw = try Connection(path: copy.path, mode: .readOnly)
        let layout = StoreLayout(model: model)
        try stack.context.performAndWait {
            for entity in model.entities {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
                request.includesSubentities = false
                request.sortDescriptors = []
                let objects = try stack.context.fetch(request)
                let table = try #require(layout.table(forEntity: entity.entityName))
                let number = try #require(layout.numbering[entity.entityName])
                let keys = try raw.query("SELECT Z_PK FROM \(table.name) WHERE Z_ENT = \(number) ORDER BY Z_PK").map { $0[0].int64Value! }
                #expect(objects.map(\.objectID.primaryKey) == keys, "\(entity.entityName) primary keys")
                for attribute in entity.allProperties.compactMap({ $0 as? NSAttributeDescription }) {
                    guard let column = layout.columns(forProperty: attribute.name, ofEntity: entity.entityName)?.value else { continue }
                    let values = try raw.query("SELECT \(column) FROM \(table.name) WHERE Z_ENT = \(number) ORDER BY Z_PK").map { $0[0] }
                    for (object, value) in zip(objects, values) {
                        #expect(object.attributeValue(forKey: attribute.name) == HandDecoding.decode(value, attribute.attributeType),
                                "\(entity.entityName).\(attribute.name) of \(object.objectID)")
                    }
                }
            }
        }
    }

    @Test("dictionary results hold the objects' values", arguments: storesWithCache)
    func dictionaryResultsAgreeWithObjects(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        let model = try #require(try SQLiteStoreFile(path: copy.path).cachedModel())
        let stack = try TestStack(storeURL: copy, model: model)
        try stack.context.performAndWait {
            for entity in model.entities {
                let attributes = entity.allProperties.compactMap { $0 as? NSAttributeDescription }.filter { !$0.isTransient }
                guard !attributes.isEmpty else { continue }
                let objectsRequest = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
                objectsRequest.includesSubentities = false
                let objects = try stack.context.fetch(objectsRequest)
                let rowsRequest = NSFetchRequest<[String: Any]>(entityName: entity.entityName)
                rowsRequest.includesSubentities = false
                rowsRequest.resultType = .dictionaryResultType
                rowsRequest.propertiesToFetch = attributes.map(\.name)
                let rows = try stack.context.fetch(rowsRequest)
                #expect(rows.count == objects.count, "\(entity.entityName) rows")
                // The same fetch as rows sharing one key table.
                let typedRequest = NSFetchRequest<FetchedDictionary>(entityName: entity.entityName)
                typedRequest.includesSubentities = false
                typedRequest.resultType = .dictionaryResultType
                typedRequest.propertiesToFetch = attributes.map(\.name)
                let typedRows = try stack.context.fetch(typedRequest)
                #expect(typedRows.count == objects.count, "\(entity.entityName) typed rows")
                for ((object, row), typedRow) in zip(zip(objects, rows), typedRows) {
                    #expect(Set(typedRow.keys) == Set(row.keys) && typedRow.count == row.count, "\(entity.entityName) keys of \(object.objectID)")
                    for attribute in attributes {
                        // A value kept in an external file reads as nil from a dictionary; the object resolves it.
                        guard let expected = object.attributeValue(forKey: attribute.name) else { continue }
                        let actual = row[attribute.name].flatMap { try? AttributeValue(dictionaryValue: $0) }
                        #expect(actual == expected, "\(entity.entityName).\(attribute.name) of \(object.objectID): \(String(describing: row[attribute.name]))")
                        let typedActual = typedRow[attribute.name].flatMap { try? AttributeValue(dictionaryValue: $0) }
                        #expect(typedActual == expected, "\(entity.entityName).\(attribute.name) of \(object.objectID), typed: \(String(describing: typedRow[attribute.name]))")
                        #expect(typedRow[attribute.name, as: Any.self].flatMap { try? AttributeValue(dictionaryValue: $0) } == expected)
                    }
                    #expect(typedRow == typedRow && [String: Any](typedRow).count == row.count)
                }
            }
        }
    }

    @Test("typed reads of objects equal their untyped values", arguments: storesWithCache)
    func typedReadsAgreeWithValueForKey(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        let model = try #require(try SQLiteStoreFile(path: copy.path).cachedModel())
        let stack = try TestStack(storeURL: copy, model: model)
        try stack.context.performAndWait {
            for entity in model.entities {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
                request.includesSubentities = false
                for object in try stack.context.fetch(request) {
                    for attribute in entity.allProperties.compactMap({ $0 as? NSAttributeDescription }) where !attribute.isTransient {
                        let key = attribute.name, untyped = object.value(forKey: key)
                        let context = "\(entity.entityName).\(key) of \(object.objectID)"
                        // `value(forKey:)` gives Apple's NSNumber (and NSDecimalNumber) for numbers, so the attribute's
                        // type, not the value's, says which typed read to compare with.
                        let number = untyped as? NSNumber
                        switch (attribute.attributeType, untyped) {
                        case (_, nil): #expect(object.value(forKey: key, as: Any.self) == nil, "\(context)")
                        case (.integer16AttributeType, _), (.integer32AttributeType, _), (.integer64AttributeType, _):
                            let value = try #require(number, "\(context)").int64Value
                            #expect(object.value(forKey: key, as: Int64.self) == value, "\(context)")
                            #expect(object.value(forKey: key, as: Int.self) == Int(value), "\(context)")
                            #expect(object.value(forKey: key, as: Int16.self) == Int16(exactly: value), "\(context)")
                        case (.doubleAttributeType, _): #expect(object.value(forKey: key, as: Double.self) == number?.doubleValue, "\(context)")
                        case (.floatAttributeType, _): #expect(object.value(forKey: key, as: Float.self) == number?.floatValue, "\(context)")
                        case (.booleanAttributeType, _): #expect(object.value(forKey: key, as: Bool.self) == number?.boolValue, "\(context)")
                        case (.decimalAttributeType, _):
                            #expect(object.value(forKey: key, as: Decimal.self) == (untyped as? NSDecimalNumber)?.decimalValue, "\(context)")
                        case (_, let value as String): #expect(object.value(forKey: key, as: String.self) == value, "\(context)")
                        case (_, let value as Date): #expect(object.value(forKey: key, as: Date.self) == value, "\(context)")
                        case (_, let value as Data): #expect(object.value(forKey: key, as: Data.self) == value, "\(context)")
                        case (_, let value as UUID): #expect(object.value(forKey: key, as: UUID.self) == value, "\(context)")
                        case (_, let value as URL): #expect(object.value(forKey: key, as: URL.self) == value, "\(context)")
                        default: #expect(object.value(forKey: key, as: Any.self) != nil, "\(context): \(type(of: untyped!))")
                        }
                        #expect(object.value(forKey: key, as: [Int].self) == nil, "\(context): no attribute reads as an array")
                    }
                }
            }
        }
    }

    @Test func toOneAndToManyRelationshipsResolve() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let model = try #require(try SQLiteStoreFile(path: copy.path).cachedModel())
        let stack = try TestStack(storeURL: copy, model: model)
        let raw = try Connection(path: copy.path, mode: .readOnly)
        try stack.context.performAndWait {
            let people = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            #expect(people.count == 20)
            for person in people {
                let cars = try #require(person.value(forKey: "cars") as? Set<NSManagedObject>)
                let expected = try raw.query("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ?", arguments: [.integer(person.objectID.primaryKey)])
                    .map { $0[0].int64Value! }
                #expect(Set(cars.map(\.objectID.primaryKey)) == Set(expected))
                for car in cars {
                    #expect((car.value(forKey: "owner") as? NSManagedObject) === person, "uniquing: one object per ID")
                }
            }
            let expensive = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ExpensiveSportCar"))
            #expect(expensive.allSatisfy { $0.entity.entityName == "ExpensiveSportCar" })
            let allCars = try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Car"))
            #expect(allCars == 125)
            let onlyCars = NSFetchRequest<NSManagedObject>(entityName: "Car")
            onlyCars.includesSubentities = false
            #expect(try stack.context.count(for: onlyCars) == 115)
        }
    }

    @Test func orderedManyToManyKeepsOrder() throws {
        let copy = try Fixtures.copy("stores/contentful-manytomany-ordered/Test.sqlite")
        let model = try #require(try SQLiteStoreFile(path: copy.path).cachedModel())
        let stack = try TestStack(storeURL: copy, model: model)
        let raw = try Connection(path: copy.path, mode: .readOnly)
        try stack.context.performAndWait {
            for post in try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Post")) {
                let authors = try #require(post.value(forKey: "authors") as? [NSManagedObject])
                let expected = try raw.query(
                    "SELECT Z_2AUTHORS FROM Z_2CREATEDENTRIES WHERE Z_4CREATEDENTRIES = ? ORDER BY Z_FOK_2AUTHORS",
                    arguments: [.integer(post.objectID.primaryKey)]).map { $0[0].int64Value! }
                #expect(authors.map(\.objectID.primaryKey) == expected)
            }
        }
    }
}

/// A read-only stack on one store, with a private-queue context.
struct TestStack {
    let coordinator: NSPersistentStoreCoordinator
    let context: NSManagedObjectContext

    init(storeURL: URL, model: NSManagedObjectModel, options: [String: Any] = [NSReadOnlyPersistentStoreOption: true]) throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: storeURL, options: options)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }
}

/// An independent decoding of raw column values, following the store format reference §4.4.
enum HandDecoding {
    static func decode(_ value: SQLiteValue, _ type: NSAttributeType) -> AttributeValue? {
        switch (type, value) {
        case (_, .null): return nil
        case (.integer16AttributeType, .integer(let v)), (.integer32AttributeType, .integer(let v)), (.integer64AttributeType, .integer(let v)):
            return .integer(v)
        case (.booleanAttributeType, .integer(let v)): return .boolean(v != 0)
        case (.doubleAttributeType, .real(let v)): return .double(v)
        case (.doubleAttributeType, .integer(let v)): return .double(Double(v))
        case (.floatAttributeType, .real(let v)): return .float(Float(v))
        case (.floatAttributeType, .integer(let v)): return .float(Float(v))
        case (.dateAttributeType, .real(let v)): return .date(Date(timeIntervalSinceReferenceDate: v))
        case (.dateAttributeType, .integer(let v)): return .date(Date(timeIntervalSinceReferenceDate: Double(v)))
        // A decimal stored as REAL means the decimal with 15 significant digits (what a double holds exactly).
        case (.decimalAttributeType, .real(let v)): return .decimal(Decimal(string: String(format: "%.15g", v))!)
        case (.decimalAttributeType, .integer(let v)): return .decimal(Decimal(v))
        case (.stringAttributeType, .text(let v)): return .string(v)
        case (.URIAttributeType, .text(let v)): return .uri(URL(string: v)!)
        case (.UUIDAttributeType, .blob(let b)) where b.count == 16:
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case (.binaryDataAttributeType, .blob(let b)), (.transformableAttributeType, .blob(let b)): return .data(Data(b))
        default: return nil
        }
    }
}

extension AttributeValue {
    /// The typed form of a dictionary result's value (the `Any` that `anyValue` gives back).
    init(dictionaryValue value: Any) throws {
        switch value {
        case let v as Int64: self = .integer(v)
        case let v as Double: self = .double(v)
        case let v as Float: self = .float(v)
        case let v as Decimal: self = .decimal(v)
        case let v as String: self = .string(v)
        case let v as Bool: self = .boolean(v)
        case let v as Date: self = .date(v)
        case let v as Data: self = .data(v)
        case let v as UUID: self = .uuid(v)
        case let v as URL: self = .uri(v)
        default: throw CocoaError(.coderInvalidValue)
        }
    }
}
