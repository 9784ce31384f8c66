import Foundation

/// Core Data's version hashes, computed exactly as Apple computes them (store format reference §10).
///
/// A store records each entity's hash in its metadata (`NSStoreModelVersionHashes`); a model opens the store only
/// when its hashes match. All hashes are SHA-256; integers are little-endian; strings are UTF-8 without terminator.
package enum VersionHashing {
    /// The hash of an entity: its name, abstract flag, parent's hash, every stored property (inherited ones too)
    /// in code-point order of their names, its version hash modifier and its own uniqueness constraints.
    package static func hash(of entity: NSEntityDescription) -> [UInt8] {
        var bytes = Array(entity.entityName.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parent = entity.superentity {
            bytes += hash(of: parent)
        }
        let hashed = entity.allProperties
            .filter { !($0 is NSFetchedPropertyDescription) && ($0 is NSDerivedAttributeDescription || !$0.isTransient) }
            .sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
        for property in hashed {
            bytes += hash(of: property)
        }
        if let modifier = entity.versionHashModifier, !modifier.isEmpty {
            bytes += Array(modifier.utf8)
        }
        let constraints = entity.uniquenessConstraintNames
            .map { $0.joined(separator: ".") }
            .sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        for constraint in constraints where !constraint.isEmpty {
            bytes += Array(constraint.utf8)
        }
        return Digest.sha256(bytes)
    }

    /// The hash of a property, by its kind.
    package static func hash(of property: NSPropertyDescription) -> [UInt8] {
        switch property {
        case let derived as NSDerivedAttributeDescription:
            // The base property hash is not part of a derived attribute's hash (§10.4).
            var bytes = Array(derived.derivationExpressionFormat.utf8)
            if let filter = derived.filteringPredicateFormat { bytes += Array(filter.utf8) }
            return Digest.sha256(bytes)
        case let attribute as NSAttributeDescription:
            var bytes = baseHash(of: attribute)
            appendLittleEndian(Int32(truncatingIfNeeded: attribute.attributeType.rawValue), to: &bytes)
            if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
            if attribute.preservesValueInHistoryOnDeletion { bytes.append(1) }
            return Digest.sha256(bytes)
        case let relationship as NSRelationshipDescription:
            var bytes = baseHash(of: relationship)
            bytes += Array(relationship.destinationEntityName.utf8)
            if let inverse = relationship.inverseRelationshipName, !isOwnInverse(relationship) {
                bytes += Array(inverse.utf8)
            }
            appendLittleEndian(Int32(truncatingIfNeeded: relationship.maxCount), to: &bytes)
            appendLittleEndian(Int32(truncatingIfNeeded: relationship.minCount), to: &bytes)
            if relationship.isOrdered { appendLittleEndian(Int16(1), to: &bytes) }
            return Digest.sha256(bytes)
        default:
            return Digest.sha256(baseHash(of: property))
        }
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes in entity-name order.
    package static func checksum(of hashes: [String: Data]) -> String {
        let bytes = sortedNames(hashes).flatMap { Array(hashes[$0]!) }
        return Data(Digest.sha256(bytes)).base64EncodedString()
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity name followed by its hash, in name order.
    package static func digest(of hashes: [String: Data]) -> String {
        let bytes = sortedNames(hashes).flatMap { Array($0.utf8) + Array(hashes[$0]!) }
        return Data(Digest.sha512(bytes)).base64EncodedString()
    }

    // MARK: Helpers

    /// SHA-256 of the name, a 16-bit flag word (optional, transient, read-only) and the version hash modifier.
    private static func baseHash(of property: NSPropertyDescription) -> [UInt8] {
        var bytes = Array(property.name.utf8)
        var flags: UInt16 = 0
        if property.isOptional { flags |= 1 }
        if property.isTransient { flags |= 2 }
        if property.isReadOnly { flags |= 4 }
        appendLittleEndian(flags, to: &bytes)
        if let modifier = property.versionHashModifier, !modifier.isEmpty {
            bytes += Array(modifier.utf8)
        }
        return Digest.sha256(bytes)
    }

    /// A relationship that is its own inverse (a symmetric self-relationship) does not hash the inverse's name.
    private static func isOwnInverse(_ relationship: NSRelationshipDescription) -> Bool {
        guard relationship.inverseRelationshipName == relationship.name else { return false }
        // Only a relationship from an entity to itself can be its own inverse.
        return relationship.destinationEntityName == relationship.entity?.entityName
            && (relationship.inverseEntityName ?? relationship.destinationEntityName) == relationship.destinationEntityName
    }

    private static func sortedNames(_ hashes: [String: Data]) -> [String] {
        hashes.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
