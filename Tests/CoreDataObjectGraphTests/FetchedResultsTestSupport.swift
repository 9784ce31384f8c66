import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates

/// The contacts of the fetched results controller tests, declared as Xcode generates a subclass.
public class FRCContact: NSManagedObject {
    @Managed public var name: String?
    @Managed public var group: String?
    @Managed public var rank: Int64
}

/// A store of contacts, built in code as Apple's documentation builds a model: `Contact` (name, group, rank) and its
/// subentity `Colleague`.
struct ContactsStack {
    let coordinator: NSPersistentStoreCoordinator
    let context: NSManagedObjectContext

    static func model() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let contact = NSEntityDescription()
        contact.name = "Contact"
        contact.managedObjectClassName = "CoreDataObjectGraphTests.FRCContact"
        contact.properties = [attribute("name", .stringAttributeType), attribute("group", .stringAttributeType),
                              attribute("rank", .integer64AttributeType)]
        let colleague = NSEntityDescription()
        colleague.name = "Colleague"
        colleague.properties = [attribute("desk", .stringAttributeType)]
        colleague.superentityName = "Contact"
        let model = NSManagedObjectModel()
        model.entities = [contact, colleague]
        return model
    }

    /// A new store holding `contacts` (name, group, rank), saved.
    init(_ contacts: [(String, String?, Int64)] = []) throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType,
                                           at: try TemporaryDirectory.make().appendingPathComponent("Contacts.sqlite"))
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for contact in contacts { Self.insert(contact, into: context) }
            try context.save()
        }
    }

    @discardableResult
    static func insert(_ contact: (String, String?, Int64), entity: String = "Contact", into context: NSManagedObjectContext) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        object.setValue(contact.0, forKey: "name")
        object.setValue(contact.1, forKey: "group")
        object.setValue(contact.2, forKey: "rank")
        return object
    }

    /// Contacts by group, then name: the sort a controller sectioned by `group` needs.
    static func byGroupRequest() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
        request.sortDescriptors = [Predicates.NSSortDescriptor(key: "group", ascending: true),
                                   Predicates.NSSortDescriptor(key: "name", ascending: true)]
        return request
    }
}

/// A delegate that writes down every call, as a table view's updates would apply them.
final class ChangeRecorder: NSFetchedResultsControllerDelegate {
    enum Event: Equatable, CustomStringConvertible {
        case willChange
        case didChange
        case object(String, NSFetchedResultsChangeType, IndexPath?, IndexPath?)
        case section(String, Int, NSFetchedResultsChangeType)

        var description: String {
            switch self {
            case .willChange: return "will"
            case .didChange: return "did"
            case .object(let name, let type, let old, let new):
                return "\(name) \(type) \(old.map { "\($0)" } ?? "-") → \(new.map { "\($0)" } ?? "-")"
            case .section(let name, let index, let type): return "section '\(name)' \(type) at \(index)"
            }
        }
    }

    var events: [Event] = []
    /// The controllers the calls came with.
    var controllers: [NSFetchedResultsController<NSManagedObject>] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
        events.append(.willChange)
        controllers.append(controller)
    }

    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let name = (anObject as? NSManagedObject)?.value(forKey: "name") as? String ?? "?"
        events.append(.object(name, type, indexPath, newIndexPath))
    }

    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        events.append(.section(sectionInfo.name, sectionIndex, type))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
        events.append(.didChange)
    }

    /// The events since the last call, cleared.
    func take() -> [Event] {
        defer { events.removeAll() }
        return events
    }
}

extension NSFetchedResultsController {
    /// The contacts' names by section, as a table view shows them.
    var namesBySection: [[String]] {
        (sections ?? []).map { section in (section.objects ?? []).map { ($0 as? NSManagedObject)?.value(forKey: "name") as? String ?? "?" } }
    }
}

func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(item: row, section: section) }
