import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PropertyListCoding

/// An XML store file as written, before any model is applied: `databaseInfo` and every `object` with its
/// `attribute` and `relationship` elements, each with the line and column where it starts.
struct XMLStoreDocument {
    struct Position { var line: Int; var column: Int }
    struct Attribute { var name: String; var type: String; var text: String; var position: Position }
    struct Relationship {
        var name: String; var type: String?; var destination: String?; var idrefs: [Substring]; var position: Position
    }
    struct Object {
        var type: String; var id: String; var position: Position
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
    }

    var uuid: String?
    var nextObjectID: (text: String, position: Position)?
    /// The `<plist>` inside `<metadata>`, written out again as XML text, and where `<metadata>` starts.
    var metadataXML = ""
    var metadataPosition = Position(line: 1, column: 1)
    var objects: [Object] = []
}

/// Reads the XML store's elements with Foundation's `XMLParser` into an `XMLStoreDocument`, refusing (with the
/// line and column) markup that is not the store's: another root, unknown elements, objects without `type` or `id`.
final class XMLStoreEventReader: NSObject, XMLParserDelegate {
    private let file: String
    /// Stop after `databaseInfo` (metadata only).
    private let headerOnly: Bool
    private var document = XMLStoreDocument()
    private var failure: StoreFileError?
    private var path: [String] = []
    private var text = ""
    private var capturing = false
    private var metadataDepth = 0
    private var headerDone = false

    private init(file: String, headerOnly: Bool) {
        self.file = file
        self.headerOnly = headerOnly
    }

    /// The document in `data`, or an error naming `file` and the place.
    static func read(_ data: Data, file: String, headerOnly: Bool = false) throws(StoreFileError) -> XMLStoreDocument {
        if let problem = XMLInputCheck.problem(in: data) {
            throw StoreFileError(file: file, location: .byteOffset(problem.offset), reason: problem.reason)
        }
        let reader = XMLStoreEventReader(file: file, headerOnly: headerOnly)
        // From a stream: given the whole document at once, Foundation's parser on Linux fails on documents over
        // 10 MB (libxml2's limit on one input chunk), after reporting every element.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let succeeded = parser.parse()
        if let failure = reader.failure { throw failure }
        if reader.headerOnly && reader.headerDone { return reader.document }
        // XMLParser on Linux can report success while also setting parserError, so both are checked.
        if !succeeded || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code
            let named = code.flatMap { XMLParser.ErrorCode(rawValue: $0) }.map { "\($0) (\(code!))" } ?? code.map { "error \($0)" }
            throw StoreFileError(file: file, location: .line(parser.lineNumber, column: parser.columnNumber),
                                 reason: "malformed XML" + (named.map { " (\($0))" } ?? ""))
        }
        guard reader.path.isEmpty, !reader.sawNoRoot else {
            throw StoreFileError(file: file, location: .file, reason: "no <database> element: not an XML store")
        }
        return reader.document
    }

    private var sawRoot = false
    private var sawNoRoot: Bool { !sawRoot }

    private func position(_ parser: XMLParser) -> XMLStoreDocument.Position {
        XMLStoreDocument.Position(line: parser.lineNumber, column: parser.columnNumber)
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        guard failure == nil else { return }
        failure = StoreFileError(file: file, location: .line(parser.lineNumber, column: parser.columnNumber), reason: reason)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        guard failure == nil else { return }
        if metadataDepth > 0 {
            metadataDepth += 1
            guard metadataDepth <= 256 else { return fail(parser, "<metadata> nested deeper than 256 levels") }
            document.metadataXML += name == "plist" ? "<plist version=\"1.0\">" : "<\(name)>"
            path.append(name)
            return
        }
        switch (path.last, name) {
        case (nil, "database"):
            sawRoot = true
        case (nil, _):
            return fail(parser, "the root element is <\(name)>, not <database>: not an XML store")
        case ("database", "databaseInfo"):
            break
        case ("database", "object"):
            if headerOnly {
                headerDone = true
                parser.abortParsing()
                return
            }
            guard let type = attributes["type"], let id = attributes["id"] else {
                return fail(parser, "<object> without a type or an id")
            }
            document.objects.append(XMLStoreDocument.Object(type: type, id: id, position: position(parser)))
        case ("databaseInfo", "version"), ("databaseInfo", "UUID"), ("databaseInfo", "nextObjectID"):
            capturing = true
            text = ""
        case ("databaseInfo", "metadata"):
            metadataDepth = 1
            document.metadataPosition = position(parser)
        case ("object", "attribute"):
            guard let propertyName = attributes["name"], let type = attributes["type"] else {
                return fail(parser, "<attribute> without a name or a type")
            }
            document.objects[document.objects.count - 1].attributes.append(
                XMLStoreDocument.Attribute(name: propertyName, type: type, text: "", position: position(parser)))
            capturing = true
            text = ""
        case ("object", "relationship"):
            guard let propertyName = attributes["name"] else { return fail(parser, "<relationship> without a name") }
            let idrefs = attributes["idrefs"].map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) } ?? []
            document.objects[document.objects.count - 1].relationships.append(XMLStoreDocument.Relationship(
                name: propertyName, type: attributes["type"], destination: attributes["destination"], idrefs: idrefs,
                position: position(parser)))
        default:
            return fail(parser, "unexpected <\(name)> inside <\(path.last ?? "")>")
        }
        path.append(name)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, !path.isEmpty else { return }
        path.removeLast()
        if metadataDepth > 0 {
            metadataDepth -= 1
            if metadataDepth > 0 { document.metadataXML += "</\(name)>" }
            return
        }
        guard capturing else {
            if name == "databaseInfo" && headerOnly {
                headerDone = true
                parser.abortParsing()
            }
            return
        }
        capturing = false
        switch name {
        case "attribute": document.objects[document.objects.count - 1].attributes[
            document.objects[document.objects.count - 1].attributes.count - 1].text = text
        case "UUID": document.uuid = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case "nextObjectID": document.nextObjectID = (text.trimmingCharacters(in: .whitespacesAndNewlines), position(parser))
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing {
            text += string
        } else if metadataDepth > 1 {
            document.metadataXML += Self.escaped(string)
        }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        guard let string = String(data: block, encoding: .utf8) else { return fail(parser, "a CDATA section is not UTF-8") }
        self.parser(parser, foundCharacters: string)
    }

    /// Text written back into XML.
    static func escaped(_ text: String) -> String {
        // By bytes: "\r\n" is one Character, which a Character comparison with "\r" would miss.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x0D }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
