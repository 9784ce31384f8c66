import CoreDataModel
import CoreDataTestSupport
import Foundation
import Testing

/// The model compiler (momc's job): every Xcode model among the fixtures and the samples compiles, reads back with
/// the compiled-model reader as the same model, and where Apple's own compiled form of a source exists, agrees
/// with it.
struct ModelCompilerTests {
    /// The Xcode models among Apple's fixtures: every `.xcdatamodeld`, every Xcode 3 `.elements` file and the bare
    /// XML models, as paths relative to the fixture root.
    static func fixtureSources() -> [String] {
        guard let root = Fixtures.root, let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var sources: [String] = []
        while let path = walker.nextObject() as? String {
            let url = URL(fileURLWithPath: path)
            if url.pathExtension == "xcdatamodeld" || url.pathExtension == "elements"
                || (url.pathExtension == "xml" && path.hasPrefix("models/momxml-tests/")) {
                sources.append(path)
            }
        }
        return sources.sorted()
    }

    /// The models of the sample stores and the package's examples, relative to the project root.
    static let projectSources = ["SampleStores/Recipes/Recipes.xcdatamodeld", "SampleStores/Photos/Photos.xcdatamodeld",
                                 "SampleStores/Earthquakes/Earthquakes.xcdatamodeld", "SampleStores/Library/Library.xcdatamodeld",
                                 "Examples/NotesExample/Notes.xcdatamodeld", "Tests/ModelCompilerPluginTests/Garden.xcdatamodeld"]

    /// Compiles `source` into a fresh directory and checks the result against the source, version by version.
    func compileAndCompare(_ source: URL) throws {
        let directory = try TemporaryDirectory.make(prefix: "momc")
        let output = try ModelCompiler.compile(source, into: directory)
        let versioned = source.pathExtension == "xcdatamodeld"
        #expect(output.url.pathExtension == (versioned ? "momd" : "mom"))
        // Nothing but the compiled model is left in the directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [output.url.lastPathComponent])
        let original = try ModelLoader.loadVersions(at: source)
        let compiled = try ModelLoader.loadVersions(at: output.url)
        #expect(compiled.versions.map(\.name) == original.versions.map(\.name), "\(source.lastPathComponent)")
        #expect(compiled.currentVersionName == original.currentVersionName)
        #expect(output.versionNames == original.versions.map(\.name))
        for ((name, model), (_, back)) in zip(original.versions, compiled.versions) {
            #expect(back.entityVersionHashesByName == model.entityVersionHashesByName, "\(source.lastPathComponent) \(name)")
            let expected = ModelFingerprint.lines(model), actual = ModelFingerprint.lines(back)
            let missing = expected.filter { !actual.contains($0) }, extra = actual.filter { !expected.contains($0) }
            #expect(missing.isEmpty && extra.isEmpty,
                    "\(source.lastPathComponent) \(name): source only: \(missing.joined(separator: "\n")); compiled only: \(extra.joined(separator: "\n"))")
        }
        if versioned {
            let files = try FileManager.default.contentsOfDirectory(atPath: output.url.path).sorted()
            #expect(files == (original.versions.map { "\($0.name).mom" } + ["VersionInfo.plist"]).sorted())
            let info = try #require(try PropertyListSerialization.propertyList(
                from: Data(contentsOf: output.url.appendingPathComponent("VersionInfo.plist")), format: nil) as? [String: Any])
            #expect(info["NSManagedObjectModel_CurrentVersionName"] as? String == original.currentVersionName)
            let hashes = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
            let checksums = try #require(info["NSManagedObjectModel_VersionChecksums"] as? [String: String])
            for (name, model) in original.versions {
                #expect(hashes[name] == model.entityVersionHashesByName)
                #expect(checksums[name] == model.versionChecksum)
            }
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func everyFixtureModelCompilesAndReadsBackTheSame() throws {
        let sources = Self.fixtureSources()
        // Four .xcdatamodeld under models/, five under stores/, one .elements, three bare XML models.
        #expect(sources.count >= 13, "\(sources)")
        for source in sources {
            let copy = try Fixtures.copy(source)
            if let property = Self.refused[source] {
                // As momc refuses it: the error names the file and the property, and nothing is written.
                let directory = try TemporaryDirectory.make(prefix: "momc")
                let error = #expect(throws: ModelError.self) { try ModelCompiler.compile(copy, into: directory) }
                #expect(error?.file == copy.path && error?.reason.contains("property \(property): ") == true, "\(String(describing: error))")
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
                continue
            }
            try compileAndCompare(copy)
        }
    }

    /// The same model.xml with predicates in place of the placeholders compiles like any other: it has fetch indexes
    /// on expressions, a derived attribute and fetched properties.
    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func momXMLModelWithRealPredicatesCompiles() throws {
        let copy = try Fixtures.copy("models/momxml-tests/model.xml")
        let text = try String(contentsOf: copy, encoding: .utf8)
            .replacingOccurrences(of: "predicateString=\"predicate\"", with: "predicateString=\"name == $FETCH_SOURCE.name\"")
            .replacingOccurrences(of: "predicateString=\"predicate1\"", with: "predicateString=\"name BEGINSWITH &quot;a&quot;\"")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        try compileAndCompare(copy)
    }

    /// MomXML's model.xml gives its fetched properties the placeholder predicates "predicate" and "predicate1",
    /// which do not parse, so no compiler can archive them (momc parses every predicate of a model too).
    static let refused = ["models/momxml-tests/model.xml": "Produit.fetchedProperty"]

    @Test(arguments: projectSources)
    func everySampleModelCompilesAndReadsBackTheSame(source: String) throws {
        try compileAndCompare(Fixtures.projectRoot.appendingPathComponent(source))
    }

    /// Where Apple's compiled form of a model is among the fixtures, ours records the same version hashes,
    /// checksums and current version in VersionInfo.plist, and its .mom files read as Apple's do.
    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"), arguments: [
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld", "models/coredataplus-compiled-momd/SampleModel.momd"),
        ("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld", "models/coredataplus-compiled-momd/SampleModel3.momd"),
    ])
    func compiledModelAgreesWithApplesCompiledModel(source: String, apple: String) throws {
        let output = try ModelCompiler.compile(try Fixtures.copy(source), into: try TemporaryDirectory.make(prefix: "momc"))
        let appleURL = try Fixtures.copy(apple)
        func info(_ momd: URL) throws -> [String: Any] {
            try #require(try PropertyListSerialization.propertyList(
                from: Data(contentsOf: momd.appendingPathComponent("VersionInfo.plist")), format: nil) as? [String: Any])
        }
        let ours = try info(output.url), theirs = try info(appleURL)
        #expect(ours["NSManagedObjectModel_CurrentVersionName"] as? String == theirs["NSManagedObjectModel_CurrentVersionName"] as? String)
        let appleHashes = try #require(theirs["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        #expect(ours["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]] == appleHashes)
        // The older fixture predates the checksums; where Apple wrote them, ours are equal.
        if let appleChecksums = theirs["NSManagedObjectModel_VersionChecksums"] as? [String: String] {
            #expect(ours["NSManagedObjectModel_VersionChecksums"] as? [String: String] == appleChecksums)
        }
        let mine = try ModelLoader.loadVersions(at: output.url), apples = try ModelLoader.loadVersions(at: appleURL)
        #expect(mine.versions.map(\.name) == apples.versions.map(\.name))
        for ((name, model), (_, appleModel)) in zip(mine.versions, apples.versions) {
            #expect(model.entitiesByName.keys.sorted() == appleModel.entitiesByName.keys.sorted(), "\(name)")
            for (entityName, entity) in model.entitiesByName {
                let appleEntity = try #require(appleModel.entitiesByName[entityName])
                #expect(entity.allProperties.map(\.name) == appleEntity.allProperties.map(\.name), "\(name) \(entityName)")
                #expect(entity.versionHash == appleEntity.versionHash, "\(name) \(entityName)")
                #expect(entity.superentityName == appleEntity.superentityName, "\(name) \(entityName)")
            }
        }
    }

    // MARK: Files and errors

    @Test func aSingleVersionCompilesToAMomFile() throws {
        let directory = try TemporaryDirectory.make(prefix: "momc")
        let version = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld/Recipes.xcdatamodel")
        let output = try ModelCompiler.compile(version, into: directory.appendingPathComponent("Out/Recipes.mom"))
        #expect(output.url.lastPathComponent == "Recipes.mom" && output.versionNames == ["Recipes"])
        let data = try Data(contentsOf: output.url)
        #expect(data.starts(with: Array("bplist00".utf8)))
        let back = try ModelLoader.loadModel(at: output.url)
        #expect(back.entityVersionHashesByName == (try ModelLoader.loadModel(at: version)).entityVersionHashesByName)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Out").path) == ["Recipes.mom"])
    }

    /// Compiling again replaces the earlier output whole, with nothing left beside it.
    @Test func compilingAgainReplacesTheEarlierMomd() throws {
        let directory = try TemporaryDirectory.make(prefix: "momc")
        let source = directory.appendingPathComponent("Garden.xcdatamodeld")
        try FileManager.default.copyItem(at: Fixtures.projectRoot.appendingPathComponent("Tests/ModelCompilerPluginTests/Garden.xcdatamodeld"),
                                         to: source)
        let out = directory.appendingPathComponent("out")
        let first = try ModelCompiler.compile(source, into: out)
        // The first version alone: the momd must lose "Garden 2.mom" and name Garden current.
        try FileManager.default.removeItem(at: source.appendingPathComponent("Garden 2.xcdatamodel"))
        try FileManager.default.removeItem(at: source.appendingPathComponent(".xccurrentversion"))
        let second = try ModelCompiler.compile(source, into: out)
        #expect(second.url == first.url)
        #expect(second.versionNames == ["Garden"] && second.currentVersionName == "Garden")
        #expect(try FileManager.default.contentsOfDirectory(atPath: second.url.path).sorted() == ["Garden.mom", "VersionInfo.plist"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["Garden.momd"])
    }

    @Test func badInputIsAnErrorNamingTheFileAndWritesNothing() throws {
        let directory = try TemporaryDirectory.make(prefix: "momc")
        let out = directory.appendingPathComponent("out")
        func failure(_ source: URL, into destination: URL) -> ModelError? {
            do {
                try ModelCompiler.compile(source, into: destination)
                return nil
            } catch {
                return error
            }
        }
        // A missing source.
        let missing = directory.appendingPathComponent("Missing.xcdatamodeld")
        #expect(failure(missing, into: out)?.description == "\(missing.path): no such file or directory")
        // A version whose contents is not a model: the error names the contents file and nothing is written.
        let broken = directory.appendingPathComponent("Broken.xcdatamodeld/Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"Nonsense\"/></entity></model>".utf8)
            .write(to: broken.appendingPathComponent("contents"))
        let error = try #require(failure(broken.deletingLastPathComponent(), into: out))
        #expect(error.file == broken.appendingPathComponent("contents").path, "\(error)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // A version with a predicate that does not parse: the error names the version and the property.
        let odd = directory.appendingPathComponent("Odd.xcdatamodeld/Odd.xcdatamodel")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        try Data("""
            <model><entity name="A"><attribute name="x" attributeType="String"/>
            <fetchedProperty name="f"><fetchRequest name="r" entity="A" predicateString="x =="/></fetchedProperty></entity></model>
            """.utf8).write(to: odd.appendingPathComponent("contents"))
        let oddError = try #require(failure(odd.deletingLastPathComponent(), into: out))
        #expect(oddError.file == odd.path && oddError.reason.hasPrefix("cannot be compiled (property A.f: "), "\(oddError)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // An already compiled model, and a .momd asked of a single version.
        #expect(failure(directory.appendingPathComponent("Model.momd"), into: out)?.reason == "is already a compiled model")
        let recipes = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld")
        let wrong = failure(recipes.appendingPathComponent("Recipes.xcdatamodel"), into: out.appendingPathComponent("Recipes.momd"))
        #expect(wrong?.reason == "a single model version compiles to a .mom file, not a .momd")
        #expect(failure(recipes, into: out.appendingPathComponent("Recipes.mom"))?.file == out.appendingPathComponent("Recipes.mom").path)
        // A file where the .momd goes is not replaced.
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: out.appendingPathComponent("Recipes.momd"))
        #expect(failure(recipes, into: out)?.reason == "is a file; refusing to replace it with a compiled model directory")
        #expect(try Data(contentsOf: out.appendingPathComponent("Recipes.momd")) == Data("keep".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["Recipes.momd"])
    }
}
