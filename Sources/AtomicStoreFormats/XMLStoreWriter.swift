import CoreDataModel
import Foundation
import PropertyListCoding

/// Writes `StoreFileContents` as Apple's XML store: the prolog and DOCTYPE of Xcode's files, four-space indentation,
/// entity names in upper case and property names in lower case, nil attributes left out, every stored
/// relationship written (an empty one without `idrefs`), attributes before relationships in the model's order.
struct XMLStoreWriter {
    let schema: StoreFileSchema

    func write(_ contents: StoreFileContents) throws(StoreFileError) -> Data {
        let file = "XML store being written"
        let objects = contents.objects.sorted { $0.reference < $1.reference }
        try StoreFileGraphCheck(schema: schema, file: file, spell: { "z\($0)" },
                                locate: { index, _ in .object(objects[index].reference) }).check(objects)
        var output = """
            <?xml version="1.0" standalone="no"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>\(XMLStoreFormat.version)</version>

            """
        output.reserveCapacity(objects.count * 256)
        if let uuid = contents.storeUUID {
            output += "        <UUID>\(try Self.escaped(uuid, file: file, what: "the store UUID"))</UUID>\n"
        }
        let mark = max(contents.referenceHighWaterMark, objects.last?.reference ?? 0, 0)
        output += "        <nextObjectID>\(mark)</nextObjectID>\n"
        output += try metadataElement(contents.metadata, file: file)
        output += "    </databaseInfo>\n"
        for object in objects {
            try append(object, to: &output, file: file)
        }
        output += "</database>"
        return Data(output.utf8)
    }

    private func metadataElement(_ metadata: [String: PropertyListValue], file: String) throws(StoreFileError) -> String {
        var entries = metadata
        // Both live outside the plist in this format: the UUID in <UUID>, the type in the format itself.
        entries[StoreMetadataKey.storeUUID] = nil
        entries[StoreMetadataKey.storeType] = nil
        guard !entries.isEmpty else { return "        <metadata></metadata>\n" }
        let plist: Data
        do {
            plist = try XMLPropertyListWriter().write(.dictionary(entries))
        } catch {
            throw StoreFileError(file: file, location: .file, reason: "the metadata cannot be written as XML: \(error)")
        }
        let lines = String(decoding: plist, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.drop { !$0.hasPrefix("<plist") }.filter { !$0.isEmpty }
        // Indented as Apple's files are, unless a key or string spans lines: indenting would change its text.
        let indentation = Self.hasLineBreak(.dictionary(entries)) ? "" : "            "
        return "        <metadata>\n" + body.map { indentation + $0 + "\n" }.joined() + "        </metadata>\n"
    }

    private static func hasLineBreak(_ value: PropertyListValue) -> Bool {
        func breaks(_ text: String) -> Bool { text.utf8.contains { $0 == 0x0A || $0 == 0x0D } }
        switch value {
        case .string(let text): return breaks(text)
        case .array(let elements): return elements.contains(where: hasLineBreak)
        case .dictionary(let entries): return entries.contains { breaks($0.key) || hasLineBreak($0.value) }
        default: return false
        }
    }

    private func append(_ object: StoreFileObject, to output: inout String, file: String) throws(StoreFileError) {
        let plan = schema.plan(for: object.entity)
        output += "    <object type=\"\(try Self.escaped(object.entity.entityName.uppercased(), file: file, what: "an entity name"))\" id=\"z\(object.reference)\">\n"
        for attribute in plan.declaredAttributes {
            guard let value = object.attributes[attribute.name],
                  let typeName = XMLStoreValueText.typeName(for: attribute.attributeType) else { continue }
            let name = try Self.escaped(attribute.name.lowercased(), file: file, what: "an attribute name")
            let text = try Self.escaped(XMLStoreValueText.text(for: value), file: file,
                                        what: "attribute \(attribute.name) of object z\(object.reference)")
            output += "        <attribute name=\"\(name)\" type=\"\(typeName)\">\(text)</attribute>\n"
        }
        for relationship in plan.relationships {
            let name = try Self.escaped(relationship.name.lowercased(), file: file, what: "a relationship name")
            let destination = try Self.escaped((relationship.destinationEntity?.entityName ?? relationship.destinationEntityName).uppercased(),
                                               file: file, what: "an entity name")
            output += "        <relationship name=\"\(name)\" type=\"\(relationship.minCount)/\(relationship.maxCount)\" destination=\"\(destination)\""
            if let destinations = object.relationships[relationship.name], !destinations.isEmpty {
                output += " idrefs=\""
                for (position, reference) in destinations.enumerated() {
                    if position > 0 { output += " " }
                    output += "z\(reference)"
                }
                output += "\""
            }
            output += "></relationship>\n"
        }
        output += "    </object>\n"
    }

    /// `text` escaped for element content and attribute values; throws for characters XML 1.0 cannot carry.
    static func escaped(_ text: String, file: String, what: String) throws(StoreFileError) -> String {
        for scalar in text.unicodeScalars where !isXMLCharacter(scalar) {
            throw StoreFileError(file: file, location: .file,
                                 reason: "\(what) holds U+\(String(scalar.value, radix: 16, uppercase: true)), which XML 1.0 cannot carry")
        }
        return XMLStoreEventReader.escaped(text)
    }

    private static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
