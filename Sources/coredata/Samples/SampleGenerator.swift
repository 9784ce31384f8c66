import CoreDataObjectGraph
import Foundation

/// The two sizes of samples: `small` is committed to `SampleStores/`, `large` is generated on demand for
/// benchmarks and the browser's scrolling tests.
enum SampleSize: String, CaseIterable {
    case small, large
}

/// One sample store: its model (our own Xcode XML, written beside the store) and the objects it holds.
protocol SampleGenerator {
    /// The sample's name: its folder, its store file and its model are named after it.
    static var name: String { get }
    /// The model in Xcode's `contents` format.
    static var modelContents: String { get }
    /// The headline number of objects for a size (recipes, photos, quakes…), or nil when the sample is not
    /// generated at that size.
    static func scale(for size: SampleSize) -> Int?

    init(scale: Int)

    /// Inserts the sample's objects through `writer`, drawing every value from `random`.
    func generate(into writer: SampleStoreWriter, random: inout SampleRandom) throws
}

/// Every sample, in the order they are generated and listed.
enum SampleCatalog {
    static var all: [any SampleGenerator.Type] {
        [RecipesSample.self, PhotosSample.self, EarthquakesSample.self, LibrarySample.self, WordsSample.self]
    }

    static func generator(named name: String) -> (any SampleGenerator.Type)? {
        all.first { $0.name.lowercased() == name.lowercased() }
    }
}
