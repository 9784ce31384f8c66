import CoreDataModel
import Foundation
import Predicates

extension NSManagedObjectContext: ExpressionFetchContext {
    /// Runs the request of a `FETCH(request, context, countOnly)` expression in this context, as Apple's
    /// `NSFetchRequestExpression` does: the objects found, or their number when `countOnly`.
    public func executeFetchExpression(request: Any?, countOnly: Bool) throws -> Any? {
        if let request = request as? NSFetchRequest<NSManagedObject> {
            return countOnly ? try count(for: request) : try fetch(request) as [Any]
        }
        throw CoreDataError(.persistentStoreOperation,
                            "FETCH needs a fetch request, got \(request.map { "\(type(of: $0))" } ?? "nil")")
    }
}
