import Predicates

/// A fetch index of an entity: a named, ordered list of elements the store indexes together, optionally restricted
/// to the rows a predicate selects (a partial index).
///
/// A class, as Apple's: build one with `init(name:elements:)`, set `name`, `elements` and `partialIndexPredicate`,
/// and give it to an entity's `indexes`, which makes the entity its `entity`. Like the other descriptions it may
/// change only while the model is being built, hence `@unchecked Sendable`.
open class NSFetchIndexDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    public var name: String
    /// The indexed properties or expressions, in index order. Setting them makes this index their `indexDescription`.
    public var elements: [NSFetchIndexElementDescription] {
        didSet { adoptElements() }
    }
    /// The predicate restricting the index to some rows (a partial index); nil indexes every row.
    public var partialIndexPredicate: Predicates.NSPredicate?
    /// The entity whose `indexes` hold this index; nil before it is given to one (a weak back reference, as the
    /// entity owns its indexes).
    public internal(set) var entity: NSEntityDescription? {
        get { entityReference.entity }
        set { entityReference = WeakEntityReference(newValue) }
    }
    private var entityReference = WeakEntityReference(nil)

    /// An index named `name` on `elements` (none for nil), as Apple's initialiser; `partialIndexPredicate` may be
    /// given here or set later.
    public init(name: String, elements: [NSFetchIndexElementDescription]?, partialIndexPredicate: Predicates.NSPredicate? = nil) {
        self.name = name
        self.elements = elements ?? []
        self.partialIndexPredicate = partialIndexPredicate
        adoptElements()
    }

    /// The partial index predicate's canonical format string, nil for a full index.
    public var partialIndexPredicateFormat: String? { partialIndexPredicate?.predicateFormat }

    private func adoptElements() {
        for element in elements { element.indexDescription = self }
    }

    /// Equal when name, elements and partial predicate are equal: two descriptions of the same index.
    public static func == (lhs: NSFetchIndexDescription, rhs: NSFetchIndexDescription) -> Bool {
        lhs === rhs || (lhs.name == rhs.name && lhs.elements == rhs.elements && lhs.partialIndexPredicate == rhs.partialIndexPredicate)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(elements)
    }

    open var description: String {
        "NSFetchIndexDescription(\(name): \(elements.map(\.description).joined(separator: ", "))"
            + (partialIndexPredicate.map { " where \($0.predicateFormat)" } ?? "") + ")"
    }
}
