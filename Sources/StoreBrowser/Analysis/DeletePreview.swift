import CoreDataModel
import CoreDataObjectGraph
import StoreAccess

/// What deleting an object will do, shown before confirming: each relationship with its delete rule and the
/// objects it reaches, named by their labels (issue 21), the first few of them.
enum DeletePreview {
    /// How many reached objects a line names.
    static let namedPerRelationship = 5

    static func lines(for object: NSManagedObject, labels: ObjectLabel = ObjectLabel()) -> [String] {
        var lines = ["Delete rules of \(ChangeSummary.name(of: object, labels: labels)):"]
        var denied = false
        for relationship in object.entity.allProperties.compactMap({ $0 as? NSRelationshipDescription }) {
            let ids = object.objectIDs(forRelationshipNamed: relationship.name)
            let count = ids.count
            let shown = Array(ids.prefix(namedPerRelationship))
            let names = (object.managedObjectContext.flatMap { try? labels.labels(for: shown, in: $0) }) ?? [:]
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
            // The objects reached, on a line of their own so that the rule's line is never cut.
            if !shown.isEmpty {
                lines.append("      " + shown.map { names[$0] ?? ObjectLabel.idText($0) }.joined(separator: ", ")
                             + (count > shown.count ? ", … (\(count - shown.count) more)" : ""))
            }
        }
        if lines.count == 1 { lines.append("  (no relationships)") }
        lines.append("")
        lines.append(denied ? "Writing will fail while the deny relationships hold objects." :
                        "The delete waits in the browser: u undoes it, :w writes it.")
        return lines
    }
}
