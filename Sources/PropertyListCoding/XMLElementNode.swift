/// One XML element: its name, the line where it starts, its text and its child elements.
final class XMLElementNode {
    let name: String
    let line: Int
    var text = ""
    var children: [XMLElementNode] = []

    init(name: String, line: Int) {
        self.name = name
        self.line = line
    }
}
