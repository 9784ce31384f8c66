import CoreDataModel
import CoreDataObjectGraph
import Foundation

/// How object IDs are written on screen: `Recipe p12` (entity and primary key, as in Core Data's object URIs), or
/// `Recipe (new)` for an object not saved yet.
package enum ObjectIDText {
    package static func short(_ id: NSManagedObjectID) -> String {
        if id.isTemporaryID { return "\(id.entity.entityName) (new)" }
        return "\(id.entity.entityName) p\(id.primaryKey)"
    }

    /// `text` with every object address (`x-coredata://STORE/Recipe/p5`, or `…/t…` for a new object) replaced by
    /// its label, for messages from the object graph shown to a user.
    package static func replacingAddresses(in text: String) -> String {
        guard text.contains("x-coredata://") else { return text }
        let pattern = #"x-coredata://[^/\s]*/([A-Za-z_][A-Za-z0-9_]*)/(p([0-9]+)|t[0-9A-Za-z-]+)"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
        var result = text
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let whole = Range(match.range, in: text), let entity = Range(match.range(at: 1), in: text) else { continue }
            let label = Range(match.range(at: 3), in: text).map { "\(text[entity]) p\(text[$0])" } ?? "\(text[entity]) (new)"
            result.replaceSubrange(whole, with: label)
        }
        return result
    }
}
