import Foundation

/// Reads compiled models: `.mom` files (an NSKeyedArchiver archive of `NSManagedObjectModel`), `.momd`
/// directories, and the same archive as Core Data caches it inside a store (`Z_MODELCACHE`).
package struct CompiledModelReader {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    package func read(_ data: Data) throws(ModelError) -> NSManagedObjectModel {
        throw ModelError(file: file, reason: "compiled models (.mom) are not readable yet")
    }

    package static func loadVersionedDirectory(_ url: URL) throws(ModelError) -> ModelVersionSet {
        throw ModelError(file: url.path, reason: "compiled models (.momd) are not readable yet")
    }
}

/// Reads Xcode 3's binary model format (`elements`, an NSKeyedArchiver archive of `XDDevEntity` objects).
package struct LegacyElementsReader {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    package func read(_ data: Data) throws(ModelError) -> NSManagedObjectModel {
        throw ModelError(file: file, reason: "Xcode 3 binary models (elements) are not readable yet")
    }
}
