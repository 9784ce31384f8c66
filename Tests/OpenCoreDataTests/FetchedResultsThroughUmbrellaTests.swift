import OpenCoreData
import Testing

/// A table view's data source written as Apple's documentation writes one around a fetched results controller, with
/// only `import OpenCoreData` (and the delegate's parameter type of docs/PORTING.md): it must compile as it stands and
/// log the updates a table view would apply.
final class ContactListDataSource: NSObject, NSFetchedResultsControllerDelegate {
    let fetchedResultsController: NSFetchedResultsController<NSManagedObject>
    private(set) var tableUpdates: [String] = []

    init(context: NSManagedObjectContext) {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        fetchedResultsController = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                              sectionNameKeyPath: nil, cacheName: nil)
        super.init()
        fetchedResultsController.delegate = self
    }

    func numberOfSections() -> Int { fetchedResultsController.sections?.count ?? 0 }

    func tableView(numberOfRowsInSection section: Int) -> Int {
        guard let sections = fetchedResultsController.sections else { fatalError("No sections in fetchedResultsController") }
        return sections[section].numberOfObjects
    }

    func title(at indexPath: IndexPath) -> String? {
        fetchedResultsController.object(at: indexPath).value(forKey: "name") as? String
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
        tableUpdates.append("beginUpdates")
    }

    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        switch type {
        case .insert: tableUpdates.append("insertRows [\(newIndexPath!.section), \(newIndexPath!.row)]")
        case .delete: tableUpdates.append("deleteRows [\(indexPath!.section), \(indexPath!.row)]")
        case .update: tableUpdates.append("reloadRows [\(indexPath!.section), \(indexPath!.row)]")
        case .move: tableUpdates.append("moveRow [\(indexPath!.row)] → [\(newIndexPath!.row)]")
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
        tableUpdates.append("endUpdates")
    }
}

struct FetchedResultsThroughUmbrellaTests {
    @Test func aDataSourceWrittenForUIKitCompilesAndFollowsItsContext() throws {
        let entity = NSEntityDescription()
        entity.name = "Contact"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        entity.properties = [name]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let container = NSPersistentContainer(name: "Contacts", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for contact in ["Kay", "Abe"] {
                NSEntityDescription.insertNewObject(forEntityName: "Contact", into: context).setValue(contact, forKey: "name")
            }
            try context.save()
            let dataSource = ContactListDataSource(context: context)
            try dataSource.fetchedResultsController.performFetch()
            #expect(dataSource.numberOfSections() == 1 && dataSource.tableView(numberOfRowsInSection: 0) == 2)
            #expect(dataSource.title(at: IndexPath(row: 1, section: 0)) == "Kay")
            NSEntityDescription.insertNewObject(forEntityName: "Contact", into: context).setValue("Eli", forKey: "name")
            try context.save()
            #expect(dataSource.tableUpdates == ["beginUpdates", "insertRows [0, 1]", "endUpdates"])
            #expect(dataSource.title(at: IndexPath(row: 1, section: 0)) == "Eli")
        }
    }
}
