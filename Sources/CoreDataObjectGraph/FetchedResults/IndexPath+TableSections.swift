import Foundation

// UIKit's and AppKit's `IndexPath` members for tables and collections, which fetched results controller code uses
// everywhere and Foundation on Linux lacks: a section, then a row (or item).
extension IndexPath {
    /// An index path to `row` in `section`.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }

    /// An index path to `item` in `section`.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

    /// The section: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row in the section: the second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The item in the section: the second index.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
