/// An iOS 17 composite attribute type: a named group of attributes stored together.
public struct CompositeDescription: Sendable, Hashable {
    public struct Element: Sendable, Hashable {
        public var name: String
        public var attributeType: NSAttributeType
        public var isOptional: Bool
        public var compositeName: String?
    }

    public var name: String
    public var elements: [Element]
}
