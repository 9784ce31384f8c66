import CoreDataModel
import CoreDataObjectGraph

/// What deleting an object will do, shown before confirming: each relationship with its delete rule and the
/// objects it reaches.
enum DeletePreview {
    static func lines(for object: NSManagedObject) -> [String] {
        var lines = ["Delete rules of \(object.entity.name):"]
        var denied = false
        for relationship in object.entity.allProperties.compactMap({ $0 as? NSRelationshipDescription }) {
            let count = object.objectIDs(forRelationshipNamed: relationship.name).count
            let reach = "\(count) \(relationship.destinationEntityName) object\(count == 1 ? "" : "s")"
            let effect: String
            switch relationship.deleteRule {
            case .nullifyDeleteRule: effect = "nullify: \(reach) lose their link back"
            case .cascadeDeleteRule: effect = "cascade: \(reach) deleted too"
            case .denyDeleteRule:
                effect = count > 0 ? "deny: \(reach) — the delete will be refused on save" : "deny: none, so allowed"
                denied = denied || count > 0
            case .noActionDeleteRule: effect = "no action: \(reach) keep a dangling link"
            }
            lines.append("  \(relationship.name): \(effect)")
        }
        if lines.count == 1 { lines.append("  (no relationships)") }
        lines.append("")
        lines.append(denied ? "Writing will fail while the deny relationships hold objects." :
                        "The delete waits in the browser: u undoes it, :w writes it.")
        return lines
    }
}
