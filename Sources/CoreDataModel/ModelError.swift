/// A model that could not be loaded: names the file and, for XML models, the element path.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var elementPath: String?
    public var reason: String

    public init(file: String? = nil, elementPath: String? = nil, reason: String) {
        self.file = file
        self.elementPath = elementPath
        self.reason = reason
    }

    public var description: String {
        var text = ""
        if let file { text += "\(file): " }
        if let elementPath { text += "at \(elementPath): " }
        return text + reason
    }
}
