import CoreDataObjectGraph
import Foundation
import KeyValueCoding

/// Key-path values for printing, with faults that could not be fulfilled reported instead of printed as empty: a
/// damaged store's reference to a missing row, or to a row of another entity, stops the command with a line that
/// names the object, the key path and what is wrong.
enum KeyPathValues {
    static func value(of object: NSManagedObject, forKeyPath keyPath: String) throws -> Any? {
        // Printed by Swift type, so Apple's NSNumbers from `value(forKey:)` go back to the type they hold.
        let value = UnbridgedValue.of(KeyValueLookup.value(of: object, forKeyPath: keyPath))
        // Walks the path again over the objects it passed (their values are loaded now, so this reads memory),
        // looking for one whose fault or relationship could not be fulfilled.
        var level: [NSManagedObject] = [object]
        for component in keyPath.split(separator: ".").map(String.init) {
            var next: [NSManagedObject] = []
            for current in level {
                let reached = component.hasPrefix("@") ? nil : KeyValueLookup.value(of: current, forKey: component)
                if let error = current.faultingError { throw failure(object, keyPath, error) }
                if let one = reached as? NSManagedObject {
                    next.append(one)
                } else if let many = reached.flatMap(KeyValueLookup.elements(of:)) {
                    next += many.compactMap { $0 as? NSManagedObject }
                }
            }
            if component.hasPrefix("@") { break }
            level = next
        }
        for current in level {
            if let error = current.faultingError { throw failure(object, keyPath, error) }
        }
        return value
    }

    private static func failure(_ object: NSManagedObject, _ keyPath: String, _ error: any Error) -> CommandFailure {
        let message = (error as? CoreDataError)?.message ?? "\(error)"
        return CommandFailure("\(keyPath) of \(object.objectID.uriRepresentation().absoluteString): \(message)")
    }
}
