import Foundation

extension NSManagedObjectContext {
    /// Starts or stops observing the saves `automaticallyMergesChangesFromParent` merges: the parent's, or for a
    /// context on a coordinator, those of the other root contexts on the same coordinator. Each is merged on this
    /// context's queue with `mergeChanges(fromContextDidSave:)`, as Apple's does.
    func automaticMergingChanged() {
        if let automaticMergeObserver {
            NotificationCenter.default.removeObserver(automaticMergeObserver)
            self.automaticMergeObserver = nil
        }
        guard automaticallyMergesChangesFromParent else { return }
        let source: NSManagedObjectContext? = parent
        automaticMergeObserver = NotificationCenter.default.addObserver(
            forName: Self.didSaveObjectsNotification, object: source, queue: nil
        ) { [weak self] notification in
            guard let self, let saver = notification.object as? NSManagedObjectContext, saver !== self else { return }
            if source == nil {
                // A root context merges the saves of the other root contexts on its coordinator.
                guard saver.parent == nil, saver.persistentStoreCoordinator === self.persistentStoreCoordinator else { return }
            }
            let carried = NotificationCarrier(notification: notification)
            self.perform { [weak self] in self?.mergeChanges(fromContextDidSave: carried.notification) }
        }
    }
}

/// A did-save notification handed to the merging context's queue: its object IDs may cross queues, and the objects
/// it lists are only read for their IDs.
private struct NotificationCarrier: @unchecked Sendable {
    let notification: Notification
}
