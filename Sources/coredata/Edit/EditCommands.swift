import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import StoreAccess
import KeyValueCoding

/// `coredata create STORE --model M`: an empty store for a model, as Apple's Core Data creates one.
struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create an empty store for a model, as Apple's Core Data would.")

    @Argument(help: "The store to create (.sqlite, or an XML or binary file); it must not exist.") var store: String
    @Option(help: "The model (.xcdatamodeld, .xcdatamodel, .momd, .mom).") var model: String
    @Option(help: "The store type: sqlite, xml, binary or a registered custom type.") var type: String = "sqlite"
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        let kind: StoreKind
        do {
            kind = try StoreKind(typeName: type)
        } catch {
            throw CommandFailure(wrapping: error)
        }
        guard case .file(let storeType) = kind else {
            throw CommandFailure("--type memory: an in-memory store keeps no file, so there is nothing to create", exitStatus: ExitStatus.usageError)
        }
        let loaded = try ModelLoader.loadModel(at: URL(fileURLWithPath: model))
        let url = URL(fileURLWithPath: store)
        if storeType == NSSQLiteStoreType {
            let uuid = try SQLiteStoreCreator.createStore(at: url, model: loaded)
            print("created \(store) (UUID \(uuid)) with \(loaded.entities.count) entities")
            return
        }
        guard !FileManager.default.fileExists(atPath: store) else {
            throw CommandFailure("\(store): already exists; refusing to overwrite it")
        }
        // Adding a store where nothing is creates it, with the model's metadata (Apple's coordinator does the same).
        let created = try NSPersistentStoreCoordinator(managedObjectModel: loaded).addPersistentStore(ofType: storeType, at: url)
        print("created \(store) (\(StoreKind.name(of: storeType)), UUID \(created.storeIdentifier)) with \(loaded.entities.count) entities")
    }
}

/// `coredata insert STORE ENTITY KEY=VALUE…`: one object inserted through a context, with validation and inverses.
struct InsertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insert", abstract: "Insert one object (validated, inverses maintained) and print its object ID.",
        discussion: "Values: numbers, true/false, ISO 8601 dates, UUIDs, 0x… bytes, NULL; to-one relationships take pN or an object URI.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entity.", completion: .custom(StoreCompletion.entities)) var entity: String
    @Argument(help: "KEY=VALUE assignments.") var values: [String] = []
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        try EditRunner.run {
            let session = try storeOptions.open(readOnly: false)
            let description = try session.entity(named: entity)
            guard !description.isAbstract else { throw CommandFailure("\(entity) is abstract; insert one of its subentities") }
            let assignments = try ValueParsing.assignments(values)
            let id = try session.context.performAndWait {
                let object = NSManagedObject(entity: description, insertInto: session.context)
                try ValueParsing.apply(assignments, to: object, session: session)
                try session.context.save()
                return object.objectID
            }
            print(id.uriRepresentation().absoluteString)
        }
    }
}

/// `coredata set STORE ENTITY PREDICATE KEY=VALUE… [--yes]`: update the matching objects through a context.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Update the objects matching a predicate; asks before changing more than one.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entity.", completion: .custom(StoreCompletion.entities)) var entity: String
    @Argument(help: "A predicate selecting the objects.") var predicate: String
    @Argument(help: "KEY=VALUE assignments.") var values: [String]
    @OptionGroup var predicateInputs: PredicateInputs
    @Flag(help: "Change several objects without asking.") var yes = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        try EditRunner.run {
            let assignments = try ValueParsing.assignments(values)
            // A malformed predicate is refused before the store is opened for writing.
            let parsed = try predicateInputs.predicate(predicate)
            let agreed = try ChangeConfirmation.confirmBeforeWriting(storeOptions, entity: entity, predicate: parsed,
                                                                     "change", yes: yes)
            let session = try storeOptions.open(readOnly: false)
            let request = try session.objectRequest(entityName: entity, parsedPredicate: parsed)
            try session.context.performAndWait {
                let objects = try session.context.fetch(request)
                // Asks again only when more objects match now than were agreed to a moment ago.
                try ChangeConfirmation.confirm(objects.count, "change", yes: objects.count <= agreed)
                // The save, one transaction, is the bar's last step.
                let bar = ProgressLine.forChange(of: objects.count, label: "changing \(entity)")
                defer { bar?.finish() }
                var report: [String] = []
                for (index, object) in objects.enumerated() {
                    let before = object.committedValues(forKeys: assignments.map(\.key))
                    try ValueParsing.apply(assignments, to: object, session: session)
                    let changes = assignments.map { assignment in
                        "\(assignment.key): \(ValueFormatting.text(before[assignment.key].flatMap { $0 is NSNull ? nil : $0 })) → "
                            + ValueFormatting.text(object.propertyValue(forKey: assignment.key))
                    }
                    report.append("\(object.objectID.uriRepresentation().absoluteString)  " + changes.joined(separator: ", "))
                    bar?.show(index + 1, objects.count + 1)
                }
                try session.context.save()
                bar?.show(objects.count + 1, objects.count + 1)
                bar?.finish()
                report.forEach { print($0) }
                print("changed \(objects.count) object\(objects.count == 1 ? "" : "s")")
            }
        }
    }
}

/// `coredata delete STORE ENTITY PREDICATE [--yes]`: delete the matching objects, applying delete rules.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete the objects matching a predicate, with their delete rules; asks before deleting more than one.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entity.", completion: .custom(StoreCompletion.entities)) var entity: String
    @Argument(help: "A predicate selecting the objects.") var predicate: String
    @OptionGroup var predicateInputs: PredicateInputs
    @Flag(help: "Delete several objects without asking.") var yes = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        try EditRunner.run {
            // A malformed predicate is refused before the store is opened for writing.
            let parsed = try predicateInputs.predicate(predicate)
            let agreed = try ChangeConfirmation.confirmBeforeWriting(storeOptions, entity: entity, predicate: parsed,
                                                                     "delete", yes: yes)
            let session = try storeOptions.open(readOnly: false)
            let request = try session.objectRequest(entityName: entity, parsedPredicate: parsed)
            try session.context.performAndWait {
                let objects = try session.context.fetch(request)
                try ChangeConfirmation.confirm(objects.count, "delete", yes: objects.count <= agreed)
                // The delete rules (cascade, nullify) and the save, one transaction, are the bar's last two steps.
                let bar = ProgressLine.forChange(of: objects.count, label: "deleting \(entity)")
                defer { bar?.finish() }
                for (index, object) in objects.enumerated() {
                    session.context.delete(object)
                    bar?.show(index + 1, objects.count + 2)
                }
                session.context.processPendingChanges()
                bar?.show(objects.count + 1, objects.count + 2)
                let deleted = session.context.deletedObjects.sorted { $0.objectID.description < $1.objectID.description }
                let nullified = session.context.updatedObjects.count
                try session.context.save()
                bar?.show(objects.count + 2, objects.count + 2)
                bar?.finish()
                deleted.forEach { print("deleted \($0.objectID.uriRepresentation().absoluteString)") }
                print("deleted \(deleted.count) object\(deleted.count == 1 ? "" : "s") (\(objects.count) matched, the rest by cascade); \(nullified) related object\(nullified == 1 ? "" : "s") updated")
            }
        }
    }
}

/// Runs an editing command, saying in its one-line failure that nothing was saved (the store is untouched on any
/// error because saves are one transaction); ``CoreDataCommand/exit(reporting:)`` prints it.
enum EditRunner {
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CoreDataError where error.code == .validationMultipleErrors {
            throw CommandFailure("nothing was saved: " + error.detailedErrors.map(\.message).joined(separator: "; "))
        } catch let error as CoreDataError {
            // Messages that already say so are not told twice.
            throw CommandFailure(error.message.hasSuffix("nothing was saved") ? error.message : "nothing was saved: \(error.message)")
        }
    }
}
