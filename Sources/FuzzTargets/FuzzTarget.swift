/// The parsers and readers that take untrusted input, each as a fuzz target: one body that both the libFuzzer
/// entry point (`coredata-fuzz`, built with `-sanitize=fuzzer`) and the seeded short runs in the test suite call.
///
/// A body must never trap on any input. When its reader refuses the input it must do so with the reader's own error
/// type (a `PredicateSyntaxError`, a `PropertyListError`, a `ModelError`, a `StoreFormatError`); anything else is a
/// ``FuzzOutcome/violation(_:)``.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `NSPredicate(format:)`'s parser, then printing the parsed predicate and parsing that again.
    case predicateParser = "predicate"
    /// The binary property-list reader (`bplist00`).
    case binaryPropertyList = "bplist"
    /// The XML property-list reader.
    case xmlPropertyList = "xmlplist"
    /// Keyed archives (`NSKeyedArchiver` property lists) and the compiled-model reader that decodes
    /// `Z_MODELCACHE` and `.mom` files from them.
    case keyedArchive = "archive"
    /// `Z_MODELCACHE` blobs: raw DEFLATE, then a keyed archive of the model.
    case modelCache = "modelcache"
    /// `.xcdatamodel/contents` (XML).
    case xcdatamodelContents = "contents"
    /// Xcode 3's `.xcdatamodel/elements` (a keyed archive).
    case legacyElements = "elements"
    /// Model inference from the schema of a store without a model cache; the input describes the schema
    /// (``SchemaRecipe``).
    case modelInference = "inference"
    /// The terminal sanitiser and the JSON escaper for terminals.
    case terminalSanitizer = "sanitizer"
    /// XML store files (`NSXMLStoreType`), read with a model inferred from the file, then written and read again.
    case xmlStore = "xmlstore"
    /// Binary store files (`NSBinaryStoreType`), read with a fixed model, then written and read again.
    case binaryStore = "binarystore"

    /// Runs the target on one input.
    public func run(_ input: [UInt8]) -> FuzzOutcome {
        switch self {
        case .predicateParser: FuzzBodies.predicate(input)
        case .binaryPropertyList: FuzzBodies.binaryPropertyList(input)
        case .xmlPropertyList: FuzzBodies.xmlPropertyList(input)
        case .keyedArchive: FuzzBodies.keyedArchive(input)
        case .modelCache: FuzzBodies.modelCache(input)
        case .xcdatamodelContents: FuzzBodies.xcdatamodelContents(input)
        case .legacyElements: FuzzBodies.legacyElements(input)
        case .modelInference: FuzzBodies.modelInference(input)
        case .terminalSanitizer: FuzzBodies.terminalSanitizer(input)
        case .xmlStore: FuzzBodies.xmlStore(input)
        case .binaryStore: FuzzBodies.binaryStore(input)
        }
    }

    /// The tokens the mutator splices into inputs of this target (keywords and punctuation of its format).
    public var dictionary: [[UInt8]] {
        switch self {
        case .predicateParser: FuzzDictionaries.predicate
        case .xmlPropertyList, .xcdatamodelContents: FuzzDictionaries.xml
        case .binaryPropertyList, .keyedArchive, .legacyElements, .modelCache: FuzzDictionaries.binaryPropertyList
        case .modelInference, .terminalSanitizer: FuzzDictionaries.text
        case .xmlStore: FuzzDictionaries.xml + FuzzDictionaries.xmlStore
        case .binaryStore: FuzzDictionaries.binaryPropertyList + FuzzDictionaries.binaryStore
        }
    }
}

/// What one execution of a target came to.
public enum FuzzOutcome: Sendable, Equatable {
    /// The reader accepted the input.
    case accepted
    /// The reader refused the input with its own error type.
    case rejected
    /// A guarantee failed: an error of an unexpected type, or an invariant of the output (described).
    case violation(String)
}
