import Foundation
import PropertyListCoding

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
