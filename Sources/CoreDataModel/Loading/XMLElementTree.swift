import Foundation
#if canImport(FoundationXML)
import FoundationXML
import PropertyListCoding
#endif

/// A small read-only XML tree with line numbers, built with `XMLParser`, so that model readers can report the
/// element path and line of whatever they reject.
package final class XMLElementNode: @unchecked Sendable {
    package let name: String
    package let attributes: [String: String]
    package let line: Int
    package private(set) var children: [XMLElementNode] = []
    package private(set) weak var parent: XMLElementNode?

    init(name: String, attributes: [String: String], line: Int, parent: XMLElementNode?) {
        self.name = name
        self.attributes = attributes
        self.line = line
        self.parent = parent
    }

    package subscript(attribute: String) -> String? { attributes[attribute] }

    /// Whether the attribute is spelled `YES` (Xcode's boolean spelling).
    package func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }

    package func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    package func firstChild(named name: String) -> XMLElementNode? { children.first { $0.name == name } }

    /// `/model/entity[@name='Car']/attribute[@name='color']`: where this element sits, for error messages.
    package var path: String {
        var components: [String] = []
        var current: XMLElementNode? = self
        while let node = current {
            if let name = node.attributes["name"] {
                components.append("\(node.name)[@name='\(name)']")
            } else {
                components.append(node.name)
            }
            current = node.parent
        }
        return "/" + components.reversed().joined(separator: "/") + " (line \(line))"
    }

    fileprivate func append(_ child: XMLElementNode) { children.append(child) }

    /// Parses `data` into a tree, throwing a `ModelError` naming `file` and the line where the XML is malformed.
    package static func parse(_ data: Data, file: String) throws(ModelError) -> XMLElementNode {
        if let problem = XMLInputCheck.problem(in: data) {
            throw ModelError(file: file, elementPath: "byte \(problem.offset)", reason: problem.reason)
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let succeeded = parser.parse()
        if !succeeded || builder.root == nil {
            let reason = parser.parserError.map { "malformed XML (\(describe($0)))" } ?? "malformed XML"
            throw ModelError(file: file, elementPath: "line \(parser.lineNumber), column \(parser.columnNumber)",
                             reason: reason)
        }
        return builder.root!
    }
}

/// `invalidCharacterError (9)` rather than Foundation's "The operation could not be completed".
private func describe(_ error: any Error) -> String {
    let code = (error as NSError).code
    guard let named = XMLParser.ErrorCode(rawValue: code) else { return "parser error \(code)" }
    return "\(named) (\(code))"
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLElementNode?
    private var stack: [XMLElementNode] = []

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        let node = XMLElementNode(name: elementName, attributes: attributes, line: parser.lineNumber,
                                  parent: stack.last)
        if let parent = stack.last { parent.append(node) } else { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName: String?) {
        stack.removeLast()
    }
}
