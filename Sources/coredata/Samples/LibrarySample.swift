import CoreDataObjectGraph
import Foundation

/// Library: inheritance and ordered relationships. `Item` is abstract with `Book` and `Magazine` below it (one
/// table, told apart by `Z_ENT`), `Shelf.items` is an ordered to-many whose order is not the insertion order, and
/// authors and books are many-to-many.
struct LibrarySample: SampleGenerator {
    static let name = "Library"
    static let modelContents = SampleModels.library

    static func scale(for size: SampleSize) -> Int? {
        size == .small ? 100 : nil
    }

    let itemCount: Int

    init(scale: Int) { itemCount = scale }

    func generate(into writer: SampleStoreWriter, random: inout SampleRandom) throws {
        let shelves = Self.shelves.map { name, location in
            let shelf = writer.insert("Shelf")
            shelf.setValue(name, forKey: "name")
            shelf.setValue(location, forKey: "location")
            return shelf
        }
        var authorNames = Set<String>()
        let authors = (0..<max(3, itemCount * 3 / 10)).map { _ in
            let author = writer.insert("Author")
            var name = SampleText.personName(&random)
            while !authorNames.insert(name).inserted { name = SampleText.personName(&random) }
            author.setValue(name, forKey: "name")
            if random.chance(0.8) {
                author.setValue(random.date(from: Date(timeIntervalSince1970: -1_577_923_200), years: 80), forKey: "born")  // from 1920
            }
            return author
        }
        try writer.save()
        let shelfIDs = shelves.map(\.objectID), authorIDs = authors.map(\.objectID)
        try writer.saveAndReset()

        var itemsByShelf: [[NSManagedObjectID]] = Array(repeating: [], count: shelfIDs.count)
        var inserted: [(object: NSManagedObject, shelf: Int)] = []
        for _ in 0..<itemCount {
            let item = random.chance(0.7) ? insertBook(writer: writer, authorIDs: authorIDs, random: &random)
                : insertMagazine(writer: writer, random: &random)
            item.setValue(random.date(from: Date(timeIntervalSince1970: -946_771_200), years: 55), forKey: "published")  // from 1940
            inserted.append((item, random.int(in: 0...(shelfIDs.count - 1))))
        }
        try writer.save()
        for (item, shelf) in inserted { itemsByShelf[shelf].append(item.objectID) }
        // Shelved in an order of their own (as a librarian arranges them), not the order they were catalogued in.
        for (shelfIndex, itemIDs) in itemsByShelf.enumerated() {
            let ordered = random.pick(itemIDs.count, of: itemIDs).map(writer.object)
            writer.object(shelfIDs[shelfIndex]).setValue(ordered, forKey: "items")
        }
        try writer.saveAndReset()
    }

    private func insertBook(writer: SampleStoreWriter, authorIDs: [NSManagedObjectID], random: inout SampleRandom) -> NSManagedObject {
        let book = writer.insert("Book")
        let title = random.chance(0.5) ? "The \(random.pick(Self.adjectives)) \(random.pick(Self.nouns))"
            : "\(random.pick(Self.nouns)) of \(random.pick(Self.places))"
        book.setValue(title, forKey: "title")
        book.setValue(SampleText.canonical(title), forKey: "normalizedTitle")
        book.setValue(Self.isbn13(&random), forKey: "isbn")
        book.setValue(Int32(random.int(in: 80...900)), forKey: "pageCount")
        let count = random.chance(0.8) ? 1 : random.int(in: 2...3)
        book.setValue(random.pick(count, of: authorIDs).map(writer.object), forKey: "authors")
        return book
    }

    private func insertMagazine(writer: SampleStoreWriter, random: inout SampleRandom) -> NSManagedObject {
        let magazine = writer.insert("Magazine")
        let (name, publisher) = random.pick(Self.magazines)
        let issue = random.int(in: 1...240)
        let title = "\(name) No. \(issue)"
        magazine.setValue(title, forKey: "title")
        magazine.setValue(SampleText.canonical(title), forKey: "normalizedTitle")
        magazine.setValue(Int16(issue), forKey: "issueNumber")
        magazine.setValue(publisher, forKey: "publisher")
        return magazine
    }

    /// A well-formed ISBN-13 (prefix 978, check digit computed with the alternating 1 and 3 weights).
    static func isbn13(_ random: inout SampleRandom) -> String {
        let digits = [9, 7, 8] + (0..<9).map { _ in random.int(in: 0...9) }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return (digits + [(10 - sum % 10) % 10]).map(String.init).joined()
    }

    static let shelves = [
        ("Fiction A–K", "Ground floor"), ("Fiction L–Z", "Ground floor"), ("History", "First floor"),
        ("Science", "First floor"), ("Travel", "First floor"), ("Periodicals", "Reading room"),
        ("Poésie", "Reading room"), ("Children's", "Basement"),
    ]

    static let adjectives = ["Silent", "Last", "Hidden", "Northern", "Forgotten", "Brave", "Little", "Electric", "Éternel", "Quiet"]
    static let nouns = ["Harbour", "Garden", "Archive", "River", "Winter", "Cartographer", "Lighthouse", "Orchard", "Clockmaker", "Island"]
    static let places = ["Kraków", "the Andes", "Lisboa", "the North Sea", "Zanzibar", "Provence", "Hokkaidō", "the Steppe"]
    static let magazines = [("Nature Notes", "Greenleaf Press"), ("Café Society", "Maison Éditions"),
                            ("Circuit", "Volt Media"), ("The Cartographer", "Atlas House"), ("Kitchen Garden", "Greenleaf Press")]
}
