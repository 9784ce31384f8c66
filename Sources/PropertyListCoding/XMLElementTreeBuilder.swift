import Foundation
import FoundationXML

/// Turns `XMLParser`'s events into a tree of `XMLElementNode`s, stopping at `maximumDepth`.
final class XMLElementTreeBuilder: NSObject, XMLParserDelegate {
    private let maximumDepth: Int
    private var stack: [XMLElementNode] = []
    private var root: XMLElementNode?
    private var failure: PropertyListError?

    private init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// The document element of `data`, or an error that names the line.
    static func parse(_ data: Data, maximumDepth: Int) throws -> XMLElementNode {
        if let problem = XMLInputCheck.problem(in: data) {
            throw PropertyListError(offset: problem.offset, reason: "\(problem.reason) (byte \(problem.offset))")
        }
        let builder = XMLElementTreeBuilder(maximumDepth: maximumDepth)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let succeeded = parser.parse()
        if let failure = builder.failure { throw failure }
        // XMLParser on Linux can report success while also setting parserError, so both are checked.
        if !succeeded || parser.parserError != nil {
            let detail = parser.parserError.map { "XML syntax error (\(($0 as NSError).code))" } ?? "XML syntax error"
            throw PropertyListError(line: parser.lineNumber, reason: detail)
        }
        guard let root = builder.root else {
            throw PropertyListError(line: parser.lineNumber, reason: "no document element")
        }
        return root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard stack.count < maximumDepth else {
            fail(parser, PropertyListError(line: parser.lineNumber, reason: "<\(elementName)> nested deeper than \(maximumDepth) levels"))
            return
        }
        let node = XMLElementNode(name: elementName, line: parser.lineNumber)
        if let parent = stack.last {
            parent.children.append(node)
        } else if root == nil {
            root = node
        }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // The parser may split one text node into several calls (around entities, for example).
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard let text = String(data: CDATABlock, encoding: .utf8) else {
            fail(parser, PropertyListError(line: parser.lineNumber, reason: "CDATA section is not UTF-8"))
            return
        }
        stack.last?.text += text
    }

    private func fail(_ parser: XMLParser, _ error: PropertyListError) {
        failure = error
        parser.abortParsing()
    }
}
