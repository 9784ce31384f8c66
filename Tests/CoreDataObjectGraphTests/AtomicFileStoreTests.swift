import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing
import class Predicates.NSPredicate
import class Predicates.NSSortDescriptor

/// The XML and binary stores (`NSXMLStore`, `NSBinaryStore`) through the coordinator: created when missing, saved and
/// read again, metadata with and without a coordinator, version skew, the container, and bad files refused with the
/// file and the place named.
struct AtomicFileStoreTests {
    static let fileTypes = [NSXMLStoreType, NSBinaryStoreType]

    /// People with pets (a to-many with its inverse) and an ordered list of favourite pets (no inverse).
    static func model(withNickname: Bool = false) -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person")
        var personProperties: [NSPropertyDescription] = [
            NSAttributeDescription(name: "name", type: .stringAttributeType), NSAttributeDescription(name: "age", type: .integer16AttributeType),
            NSAttributeDescription(name: "born", type: .dateAttributeType),
        ]
        if withNickname { personProperties.append(NSAttributeDescription(name: "nickname", type: .stringAttributeType)) }
        let pets = relationship("pets", to: "Pet", inverse: "owner", toMany: true)
        let favourites = relationship("favourites", to: "Pet", inverse: nil, toMany: true)
        favourites.isOrdered = true
        person.setProperties(personProperties + [pets, favourites])
        let pet = NSEntityDescription(name: "Pet")
        pet.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType),
                           relationship("owner", to: "Person", inverse: "pets", toMany: false)])
        let model = NSManagedObjectModel(entities: [person, pet])
        try! model.link()
        return model
    }

    static func relationship(_ name: String, to destination: String, inverse: String?, toMany: Bool) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
        relationship.inverseRelationshipName = inverse
        relationship.maxCount = toMany ? 0 : 1
        relationship.minCount = 0
        return relationship
    }

    static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Ann with Rex and Tom (favourites Tom then Rex), Bob with none.
    static func fill(_ context: NSManagedObjectContext) throws {
        try context.performAndWait {
            let ann = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            ann.setValue("Ann", forKey: "name")
            ann.setValue(Int16(41), forKey: "age")
            ann.setValue(Date(timeIntervalSinceReferenceDate: 12_345.5), forKey: "born")
            let bob = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            bob.setValue("Bob", forKey: "name")
            var pets: [NSManagedObject] = []
            for name in ["Rex", "Tom"] {
                let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: context)
                pet.setValue(name, forKey: "name")
                pet.setValue(ann, forKey: "owner")
                pets.append(pet)
            }
            ann.mutableOrderedSetValue(forKey: "favourites").addObjects(from: pets.reversed())
            try context.save()
        }
    }

    /// The objects as text: people by name with their values, pets and favourites in order.
    static func summary(_ context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try context.fetch(request).map { person in
                let pets = person.mutableSetValue(forKey: "pets").allObjects.compactMap { $0.propertyValue(forKey: "name") as? String }.sorted()
                let favourites = person.mutableOrderedSetValue(forKey: "favourites").allObjects.compactMap { $0.propertyValue(forKey: "name") as? String }
                return "\(person.propertyValue(forKey: "name") ?? "nil") age=\(person.propertyValue(forKey: "age").map { "\($0)" } ?? "nil") "
                    + "born=\(person.propertyValue(forKey: "born").map { "\($0)" } ?? "nil") pets=\(pets) favourites=\(favourites)"
            }
        }
    }

    @Test(arguments: fileTypes)
    func aMissingFileIsCreatedThenSavedAndReadBack(type: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("new/dir/people.store")
        let model = Self.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: type, at: url)
        #expect(store.type == type)
        #expect(FileManager.default.fileExists(atPath: url.path))
        let created = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        #expect(created[NSStoreTypeKey] as? String == type)
        #expect(created[NSStoreUUIDKey] as? String == store.identifier)
        #expect((created[NSStoreModelVersionHashesKey] as? [String: Any])?.compactMapValues { $0 as? Data } == model.entityVersionHashesByName)
        try Self.fill(Self.context(coordinator))
        let expected = ["Ann age=41 born=\(Date(timeIntervalSinceReferenceDate: 12_345.5)) pets=[\"Rex\", \"Tom\"] favourites=[\"Tom\", \"Rex\"]",
                        "Bob age=nil born=nil pets=[] favourites=[]"]
        #expect(try Self.summary(Self.context(coordinator)) == expected)

        let reopened = NSPersistentStoreCoordinator(managedObjectModel: model)
        let again = try reopened.addPersistentStore(ofType: type, at: url)
        #expect(again.identifier == store.identifier)
        #expect(try Self.summary(Self.context(reopened)) == expected)
        // Object IDs name the store's UUID and survive reopening.
        let reader = Self.context(coordinator)
        let uri = try reader.performAndWait {
            try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Pet")).first!.objectID.uriRepresentation()
        }
        #expect(reopened.managedObjectID(forURIRepresentation: uri) != nil)
    }

    @Test(arguments: fileTypes)
    func editsAndDeletesAreWrittenAndNewObjectsNumberOnFromTheFile(type: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("people.store")
        let model = Self.model()
        let first = NSPersistentStoreCoordinator(managedObjectModel: model)
        try first.addPersistentStore(ofType: type, at: url)
        try Self.fill(Self.context(first))
        let second = NSPersistentStoreCoordinator(managedObjectModel: model)
        try second.addPersistentStore(ofType: type, at: url)
        let context = Self.context(second)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Pet")
            request.predicate = NSPredicate(format: "name == 'Rex'")
            context.delete(try context.fetch(request)[0])
            let bob = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first { $0.propertyValue(forKey: "name") as? String == "Bob" }!
            bob.setValue(Int16(7), forKey: "age")
            let cat = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: context)
            cat.setValue("Cat", forKey: "name")
            cat.setValue(bob, forKey: "owner")
            try context.save()
        }
        let third = NSPersistentStoreCoordinator(managedObjectModel: model)
        try third.addPersistentStore(ofType: type, at: url)
        #expect(try Self.summary(Self.context(third)) == [
            "Ann age=41 born=\(Date(timeIntervalSinceReferenceDate: 12_345.5)) pets=[\"Tom\"] favourites=[\"Tom\"]",
            "Bob age=7 born=nil pets=[\"Cat\"] favourites=[]",
        ])
        if type == NSXMLStoreType {
            // Four objects were numbered z1…z4; the fifth takes z5, not the deleted Rex's number.
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains("id=\"z5\""), "\(text)")
            #expect(!text.contains("Rex"))
        }
    }

    @Test(arguments: fileTypes)
    func metadataIsSetThroughTheCoordinatorAndWithoutOne(type: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("people.store")
        let model = Self.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: type, at: url)
        var metadata = coordinator.metadata(for: store)
        metadata["AppKey"] = "app value"
        coordinator.setMetadata(metadata, for: store)
        try Self.fill(Self.context(coordinator))
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)["AppKey"] as? String == "app value")
        try NSPersistentStoreCoordinator.setMetadata(["Other": 3], forPersistentStoreOfType: type, at: url)
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        #expect(read["Other"] as? Int64 == 3)
        #expect(read["AppKey"] == nil)
        #expect(read[NSStoreUUIDKey] as? String == store.identifier)
        #expect(read[NSStoreTypeKey] as? String == type)
        // The objects are still there.
        let reopened = NSPersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(ofType: type, at: url)
        #expect(try Self.summary(Self.context(reopened)).count == 2)
    }

    @Test(arguments: fileTypes)
    func aStoreOfAnotherModelVersionIsRefusedNamingTheDifference(type: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("people.store")
        let old = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try old.addPersistentStore(ofType: type, at: url)
        try Self.fill(Self.context(old))
        let before = try Data(contentsOf: url)
        let newer = NSPersistentStoreCoordinator(managedObjectModel: Self.model(withNickname: true))
        let error = try #require(throws: CoreDataError.self) { try newer.addPersistentStore(ofType: type, at: url) }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.hasPrefix("\(url.path): the model is not the one that wrote this store"), "\(error.message)")
        #expect(error.message.contains("Person"), "\(error.message)")
        #expect(newer.persistentStores.isEmpty)
        #expect(try Data(contentsOf: url) == before)
        if type == NSXMLStoreType {
            // Ignoring versions opens it: the XML file names its values, and the new attribute is simply absent.
            try newer.addPersistentStore(ofType: type, at: url, options: [NSIgnorePersistentStoreVersioningOption: true])
            #expect(try Self.summary(Self.context(newer)).count == 2)
        } else {
            // The binary file holds each object's values by position in the entity: another model cannot read them.
            let ignored = try #require(throws: CoreDataError.self) {
                try newer.addPersistentStore(ofType: type, at: url, options: [NSIgnorePersistentStoreVersioningOption: true])
            }
            #expect(ignored.message.hasPrefix("\(url.path): object 1: Person has 4 stored attributes, but the map node holds 3 values"),
                    "\(ignored.message)")
        }
    }

    @Test(arguments: fileTypes)
    func theContainerLoadsAFileStoreInAFreshDirectory(type: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("fresh/People")
        let container = NSPersistentContainer(name: "People", managedObjectModel: Self.model())
        let description = NSPersistentStoreDescription(url: url)
        description.type = type
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        try Self.fill(container.newBackgroundContext())
        #expect(try Self.summary(container.newBackgroundContext()).count == 2)
        #expect(container.persistentStoreCoordinator.persistentStores.first?.type == type)
    }

    @Test(arguments: fileTypes)
    func destroyRemovesTheStoreAndRefusesAFileOfAnotherKind(type: String) throws {
        let directory = try TemporaryDirectory.make()
        let url = directory.appendingPathComponent("people.store")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: type, at: url)
        try Self.fill(Self.context(coordinator))
        let document = directory.appendingPathComponent("notes.txt")
        try Data("my notes".utf8).write(to: document)
        let error = try #require(throws: CoreDataError.self) { try coordinator.destroyPersistentStore(at: document, ofType: type) }
        #expect(error.message.hasPrefix("\(document.path): is not a"), "\(error.message)")
        #expect(FileManager.default.fileExists(atPath: document.path))
        let other = type == NSXMLStoreType ? NSBinaryStoreType : NSXMLStoreType
        // Refused before anything changes: the store stays on the coordinator, its objects readable and its file whole.
        let before = try Data(contentsOf: url)
        for wrong in [other, NSSQLiteStoreType] {
            #expect(throws: CoreDataError.self) { try coordinator.destroyPersistentStore(at: url, ofType: wrong) }
            #expect(coordinator.persistentStores.count == 1)
            #expect(try Self.summary(Self.context(coordinator)).count == 2)
            #expect(try Data(contentsOf: url) == before)
        }
        try coordinator.destroyPersistentStore(at: url, ofType: type)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func aReadOnlyStoreIsNeverCreated() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("missing.xml")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let error = try #require(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(ofType: NSXMLStoreType, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        }
        #expect(error.message.contains("never created"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    // MARK: Bad files

    static func xml(_ objects: String) -> Data {
        Data("""
            <?xml version="1.0" standalone="no"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>0E82928F-05F0-40AF-851B-1FA617A37DB3</UUID>
                    <nextObjectID>9</nextObjectID>
                    <metadata></metadata>
                </databaseInfo>
            \(objects)
            </database>
            """.utf8)
    }

    /// Adding the store at a file holding `data` fails: the error, after checking nothing was added or changed.
    func refusal(_ data: Data, type: String = NSXMLStoreType) throws -> (path: String, message: String) {
        let url = try TemporaryDirectory.make().appendingPathComponent("bad.store")
        try data.write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let error = try #require(throws: CoreDataError.self) { try coordinator.addPersistentStore(ofType: type, at: url) }
        #expect(error.code == .persistentStoreOpen)
        #expect(coordinator.persistentStores.isEmpty)
        #expect(try Data(contentsOf: url) == data)
        return (url.path, error.message)
    }

    @Test func malformedXMLNamesTheFileAndTheLine() throws {
        let (path, message) = try refusal(Self.xml("    <object type=\"PET\" id=\"z3\">\n        <attribute name=\"name\" type=\"string\">x</attribute>\n"))
        #expect(message.hasPrefix("\(path): line "), "\(message)")
        #expect(message.contains("malformed XML"), "\(message)")
    }

    @Test func aReferenceToAMissingObjectNamesItsLineAndTheID() throws {
        let (path, message) = try refusal(Self.xml("""
                <object type="PET" id="z3">
                    <attribute name="name" type="string">Rex</attribute>
                    <relationship name="owner" type="1/1" destination="PERSON" idrefs="z7"></relationship>
                </object>
            """))
        #expect(message.hasPrefix("\(path): line 13, column "), "\(message)")
        #expect(message.contains("z7"), "\(message)")
    }

    @Test func aDuplicateReferenceNamesTheSecondObject() throws {
        let (path, message) = try refusal(Self.xml("""
                <object type="PET" id="z3"><attribute name="name" type="string">Rex</attribute></object>
                <object type="PERSON" id="z3"><attribute name="name" type="string">Ann</attribute></object>
            """))
        #expect(message.hasPrefix("\(path): line 1"), "\(message)")
        #expect(message.contains("z3"), "\(message)")
    }

    /// Values that do not parse are placed at their attribute's line (12); a number out of the attribute's range is
    /// found when the object is checked against the model, and placed at its object's line (11).
    @Test(arguments: [
        ("<attribute name=\"age\" type=\"int16\">forty</attribute>", "forty", 12),
        ("<attribute name=\"age\" type=\"int16\">70000</attribute>", "70000", 11),
        ("<attribute name=\"age\" type=\"string\">41</attribute>", "string", 12),
        ("<attribute name=\"born\" type=\"date\">yesterday</attribute>", "yesterday", 12),
    ])
    func aValueOfTheWrongTypeNamesTheLineAndTheValue(attribute: String, named: String, line: Int) throws {
        let (path, message) = try refusal(Self.xml("    <object type=\"PERSON\" id=\"z1\">\n        \(attribute)\n    </object>"))
        #expect(message.hasPrefix("\(path): line \(line), column "), "\(message)")
        #expect(message.contains(named), "\(message)")
    }

    @Test func aTruncatedBinaryFileNamesTheByte() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("people.binary")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSBinaryStoreType, at: url)
        try Self.fill(Self.context(coordinator))
        let whole = try Data(contentsOf: url)
        for length in [10, 64, 100, whole.count - 1] {
            let (path, message) = try refusal(whole.prefix(length), type: NSBinaryStoreType)
            #expect(message.hasPrefix("\(path): byte "), "\(length) bytes: \(message)")
        }
    }

    @Test func aBinaryFileOpenedAsXMLAndTheOtherWayRoundIsRefused() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("people.binary")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSBinaryStoreType, at: url)
        let (xmlPath, xmlMessage) = try refusal(try Data(contentsOf: url), type: NSXMLStoreType)
        #expect(xmlMessage.hasPrefix("\(xmlPath): "), "\(xmlMessage)")
        let (binaryPath, binaryMessage) = try refusal(Self.xml(""), type: NSBinaryStoreType)
        #expect(binaryMessage.hasPrefix("\(binaryPath): byte 0"), "\(binaryMessage)")
    }
}
