import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess

/// Parsing of the predicate and sort arguments that `query`, `count` and `aggregate` share.
enum FetchOptions {
    /// Parses a predicate format string (see `StoreSession.predicate(_:)`).
    static func predicate(_ format: String?) throws -> Predicates.NSPredicate? {
        try StoreSession.predicate(format)
    }

    /// `name,-created`: keys sorted ascending, or descending with a leading minus.
    static func sortDescriptors(_ text: String?, entity: NSEntityDescription, session: StoreSession) throws -> [Predicates.NSSortDescriptor] {
        guard let text else { return [] }
        return try text.split(separator: ",").map { part in
            let key = part.trimmingCharacters(in: .whitespaces)
            let descending = key.hasPrefix("-")
            let name = descending || key.hasPrefix("+") ? String(key.dropFirst()) : key
            guard !name.isEmpty else { throw CommandFailure("--sort has an empty key in \"\(text)\"") }
            try session.validateKeyPath(name, from: entity)
            return Predicates.NSSortDescriptor(key: name, ascending: !descending)
        }
    }

    /// The keys a query prints by default: stored attributes, then to-one relationships.
    static func defaultKeys(for entity: NSEntityDescription) -> [String] {
        StoreSession.defaultKeys(for: entity)
    }
}
