import CoreDataModel
import Foundation

/// Transformable attributes: the object keeps, and the store holds, the bytes the attribute's value transformer made
/// (as Apple's SQLite store does); `value(forKey:)` and the typed reads give the value transformed back, and
/// `setValue(_:forKey:)` transforms what it is given.
///
/// The transformer is the one registered under the attribute's `valueTransformerName`: `NSSecureUnarchiveFromData`
/// (also spelled `NSSecureUnarchiveFromDataTransformerName`, as Xcode writes it) and its subclasses archive the
/// value and unarchive it when read; any other transformer is used the other way round, `transformedValue(_:)` making
/// the bytes and `reverseTransformedValue(_:)` the value, as Core Data does. An attribute that names no transformer
/// uses the keyed unarchiver. A name nothing is registered under leaves the value as its bytes (`Data`), as Apple's
/// Core Data does after logging that the transformer was not found.
extension NSManagedObject {
    /// How a transformable attribute's values are converted.
    struct AttributeTransformer {
        let transformer: ValueTransformer
        /// Whether the transformer unarchives in its forward direction (`NSSecureUnarchiveFromDataTransformer`).
        let unarchives: Bool

        init?(for attribute: NSAttributeDescription) {
            var name = attribute.valueTransformerName ?? ""
            if name.isEmpty { name = NSValueTransformerName.keyedUnarchiveFromDataTransformerName.rawValue }
            if name == "NSSecureUnarchiveFromDataTransformerName" { name = NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue }
            guard let transformer = ValueTransformer.registered(forName: NSValueTransformerName(name)) else { return nil }
            self.transformer = transformer
            unarchives = transformer is NSSecureUnarchiveFromDataTransformer
        }

        /// The value the stored bytes stand for, or an error saying why there is none.
        func value(from data: Data) -> Result<Any?, TransformerError> {
            let value = unarchives ? transformer.transformedValue(data) : transformer.reverseTransformedValue(data)
            if value == nil, unarchives, let archiving = transformer as? NSSecureUnarchiveFromDataTransformer {
                // Only the reason is wanted here: the transformer's own answer (overrides included) was nil.
                do { _ = try archiving.unarchivedValue(from: data) } catch { return .failure(error as? TransformerError ?? TransformerError("\(error)")) }
            }
            return .success(value)
        }

        /// The bytes to store for `value`, or an error naming the transformer and the value.
        func data(for value: Any) -> Result<Data, TransformerError> {
            let name = "\(type(of: transformer))"
            let transformed = unarchives ? transformer.reverseTransformedValue(value) : transformer.transformedValue(value)
            if let data = transformed as? Data { return .success(data) }
            if unarchives, let archiving = transformer as? NSSecureUnarchiveFromDataTransformer {
                do { _ = try archiving.archivedData(of: value) } catch { return .failure(TransformerError("\(name): \(error)")) }
            }
            return .failure(TransformerError("\(name) turned a \(type(of: value)) into "
                                             + "\(transformed.map { "a \(type(of: $0))" } ?? "nil"), not Data"))
        }
    }

    /// The value of the transformable attribute in `slot` whose stored bytes are `data`: the last one read or set
    /// for the same bytes, else the bytes transformed back (and remembered). Bytes no transformer is registered for
    /// come back as they are; bytes the transformer cannot read give nil, with `faultingError` saying why.
    final func transformableValue(_ data: Data, atSlot slot: Int) -> Any? {
        if let cached = sideState?.transformedValues[slot], cached.data == data { return cached.value }
        guard let attribute = slots.properties[slot] as? NSAttributeDescription,
              let transformer = AttributeTransformer(for: attribute) else { return data }
        switch transformer.value(from: data) {
        case .success(let value):
            transformedValues[slot] = (data, value)
            return value
        case .failure(let error):
            faultingError = CoreDataError(.coreData, "\(entity.entityName).\(attribute.name) of \(objectID.uriRepresentation().absoluteString): "
                                          + "\(type(of: transformer.transformer)) could not read the stored value: \(error)",
                                          affectedObjectIDs: [objectID])
            return nil
        }
    }

    /// `value` for the transformable attribute in `slot`, as the bytes to store; a value the transformer refuses traps,
    /// as a value of the wrong type does (Apple's Core Data raises).
    final func storedTransformableValue(_ value: Any?, atSlot slot: Int) -> StoredValue {
        guard let value, !(value is NSNull) else { return .null }
        guard let attribute = slots.properties[slot] as? NSAttributeDescription,
              let transformer = AttributeTransformer(for: attribute) else {
            // No transformer: the bytes themselves, as for a binary attribute.
            guard let data = value as? Data else {
                let name = (slots.properties[slot] as? NSAttributeDescription)?.valueTransformerName ?? ""
                preconditionFailure("\(entity.entityName).\(slots.properties[slot].name): no value transformer is registered under "
                                    + "\"\(name)\", so only Data can be stored, not a \(type(of: value))")
            }
            return .attribute(.data(data))
        }
        switch transformer.data(for: value) {
        case .success(let data):
            transformedValues[slot] = (data, value)
            return .attribute(.data(data))
        case .failure(let error):
            preconditionFailure("\(entity.entityName).\(attribute.name): \(error)")
        }
    }

    /// Whether slot `slot` holds a transformable attribute.
    @inline(__always)
    final func isTransformable(slot: Int) -> Bool {
        slots.storedAttributeTypes[slot] == .transformableAttributeType
    }
}
