import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata samples` and the committed samples in SampleStores/, driven through the real executable.
@Suite("coredata samples")
struct SamplesCommandTests {
    /// The small samples and their entities.
    static let samples: [String: [String]] = [
        "Recipes": ["Chef", "Cuisine", "Ingredient", "Photo", "Recipe", "Tag"],
        "Photos": ["Photo", "Tag"],
        "Earthquakes": ["Quake", "Region"],
        "Library": ["Author", "Book", "Item", "Magazine", "Shelf"],
    ]
    static let sampleNames = samples.keys.sorted()

    static func committedStore(_ name: String) -> URL {
        Fixtures.projectRoot.appendingPathComponent("SampleStores/\(name)/\(name).sqlite")
    }

    static func committedModel(_ name: String) -> URL {
        Fixtures.projectRoot.appendingPathComponent("SampleStores/\(name)/\(name).xcdatamodeld")
    }

    /// Runs `coredata samples ARGUMENTS` and returns the printed `Entity N` counts of each store written.
    private func generate(_ arguments: [String]) throws -> [String: [String: Int]] {
        let result = try CommandRunner.run(["samples"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        var counts: [String: [String: Int]] = [:]
        for line in result.standardOutput.split(separator: "\n") where line.hasPrefix("wrote ") {
            let parts = line.dropFirst("wrote ".count).split(separator: ": ", maxSplits: 1)
            let store = URL(fileURLWithPath: String(parts[0])).deletingPathExtension().lastPathComponent
            let list = parts[1].split(separator: ";")[0]
            for pair in list.split(separator: ",") {
                let words = pair.split(separator: " ")
                counts[store, default: [:]][String(words[0])] = Int(words[1])
            }
        }
        return counts
    }

    private func jsonl(_ store: URL, model: URL, entity: String) throws -> String {
        let result = try CommandRunner.run(["query", store.path, entity, "--model", model.path, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    // MARK: Generation

    @Test func generationIsDeterministic() throws {
        let first = try TemporaryDirectory.make(prefix: "samples-a"), second = try TemporaryDirectory.make(prefix: "samples-b")
        let printed = try generate(["--out", first.path])
        _ = try generate(["--out", second.path])
        #expect(Set(printed.keys) == Set(Self.sampleNames), "the small size writes the four committed samples")
        for (name, entities) in Self.samples {
            let storeA = first.appendingPathComponent("\(name)/\(name).sqlite"), storeB = second.appendingPathComponent("\(name)/\(name).sqlite")
            let model = first.appendingPathComponent("\(name)/\(name).xcdatamodeld")
            for entity in entities {
                let rowsA = try jsonl(storeA, model: model, entity: entity)
                #expect(!rowsA.isEmpty, "\(name).\(entity) has objects")
                #expect(rowsA == (try jsonl(storeB, model: model, entity: entity)), "\(name).\(entity) differs between two runs")
            }
        }
        // Without external data (whose file names are random UUIDs, as Apple's), the files are byte-identical.
        for name in ["Earthquakes", "Library"] {
            let path = "\(name)/\(name).sqlite"
            #expect(try Data(contentsOf: first.appendingPathComponent(path)) == Data(contentsOf: second.appendingPathComponent(path)))
        }
    }

    @Test(arguments: sampleNames)
    func committedSampleMatchesARegeneration(name: String) throws {
        let fresh = try TemporaryDirectory.make(prefix: "samples-\(name)")
        let printed = try #require(try generate(["--out", fresh.path, "--only", name])[name])
        #expect(Set(printed.keys) == Set(Self.samples[name]!))
        for (entity, count) in printed {
            let result = try CommandRunner.run(["count", Self.committedStore(name).path, entity, "--model", Self.committedModel(name).path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput == "\(count)\n", "\(name).\(entity): the committed store holds what the command prints")
            let freshStore = fresh.appendingPathComponent("\(name)/\(name).sqlite"), freshModel = fresh.appendingPathComponent("\(name)/\(name).xcdatamodeld")
            #expect(try jsonl(freshStore, model: freshModel, entity: entity) == (try jsonl(Self.committedStore(name), model: Self.committedModel(name), entity: entity)),
                    "\(name).\(entity): the committed sample is what `coredata samples` generates")
        }
    }

    // MARK: The committed samples

    @Test(arguments: sampleNames)
    func committedSampleOpensWithMatchingHashes(name: String) throws {
        let store = Self.committedStore(name)
        let result = try CommandRunner.run(["schema", store.path, "--model", Self.committedModel(name).path, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let summary = try #require(json?["store"] as? [String: Any])
        #expect(summary["hashesMatchModel"] as? Bool == true)
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: store.path + suffix), "\(name) needs no \(suffix) file")
        }
    }

    @Test(arguments: sampleNames)
    func committedSamplePassesIntegrityCheckInDeleteJournalMode(name: String) throws {
        let connection = try Connection(path: Self.committedStore(name).path, mode: .readOnly)
        #expect(try connection.integrityCheck() == ["ok"])
        #expect(try connection.journalMode() == .delete, "checkpointed into one file, so it opens read-only from a clone")
    }

    @Test func derivedIngredientCountAndDenormalisedRecipeCountAreRight() throws {
        let connection = try Connection(path: Self.committedStore("Recipes").path, mode: .readOnly)
        let wrongIngredientCounts = try connection.scalar("""
            SELECT count(*) FROM ZRECIPE r
            WHERE r.ZINGREDIENTCOUNT IS NOT (SELECT count(*) FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK)
            """)
        #expect(wrongIngredientCounts == .integer(0))
        let wrongRecipeCounts = try connection.scalar("""
            SELECT count(*) FROM ZCHEF c WHERE c.ZRECIPECOUNT IS NOT (SELECT count(*) FROM ZRECIPE r WHERE r.ZCHEF = c.Z_PK)
            """)
        #expect(wrongRecipeCounts == .integer(0))
        #expect(try connection.scalar("SELECT sum(ZRECIPECOUNT) FROM ZCHEF") == .integer(200))
        // The canonical search string is the name folded: lowercase, no diacritics.
        let sample = try connection.query("SELECT ZNAME, ZNORMALIZEDNAME FROM ZRECIPE")
        for row in sample {
            guard case .text(let name) = row[0], case .text(let normalized) = row[1] else { Issue.record("names are text"); continue }
            #expect(normalized == name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased())
        }
    }

    @Test(arguments: [("Photos", "ZFULLIMAGE", 3), ("Recipes", "ZIMAGEDATA", 1)])
    func largeImagesAreStoredExternally(name: String, column: String, expected: Int) throws {
        let store = Self.committedStore(name)
        let connection = try Connection(path: store.path, mode: .readOnly)
        let references = try connection.query("SELECT \(column) FROM ZPHOTO WHERE substr(\(column), 1, 1) = x'02'")
        #expect(references.count == expected)
        let folder = store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT/_EXTERNAL_DATA")
        var total = 0
        for row in references {
            guard case .blob(let bytes) = row[0] else { Issue.record("a reference is a blob"); continue }
            let fileName = String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(fileName).path)
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            #expect(size >= 128 * 1024, "only values over the threshold go outside the store")
            total += size
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == expected, "no orphaned external files")
        #expect(total < 1_000_000)
    }

    // MARK: Refusals

    @Test func refusesToOverwriteAStoreUnlessForced() throws {
        let directory = try TemporaryDirectory.make(prefix: "samples-overwrite")
        _ = try generate(["--out", directory.path, "--only", "Library"])
        let store = directory.appendingPathComponent("Library/Library.sqlite")
        let before = try Data(contentsOf: store)
        let refused = try CommandRunner.run(["samples", "--out", directory.path, "--only", "Library"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("refusing to overwrite \(store.path)") && refused.standardError.contains("--force"),
                "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        #expect(try Data(contentsOf: store) == before)
        let forced = try CommandRunner.run(["samples", "--out", directory.path, "--only", "Library", "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try Data(contentsOf: store) == before, "the same seed writes the same file")
    }

    @Test(arguments: [["--size", "huge"], ["--only", "Words"], ["--only", "Nonsense"], ["--size", "large", "--only", "Library"]])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let directory = try TemporaryDirectory.make(prefix: "samples-usage")
        let result = try CommandRunner.run(["samples", "--out", directory.path] + arguments)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(!result.standardError.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing is written")
    }
}
