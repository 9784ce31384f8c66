import Foundation

extension NSPersistentContainer {
    /// Runs `block` on a new private-queue context and returns its result, as Apple's `async` form; it throws only
    /// what the block throws (Apple's `rethrows`, spelled with typed throws).
    public func performBackgroundTask<T, E: Error>(_ block: @escaping (NSManagedObjectContext) throws(E) -> T) async throws(E) -> T {
        let context = newBackgroundContext()
        return try await context.perform(schedule: .enqueued) { () throws(E) -> T in try block(context) }
    }
}
