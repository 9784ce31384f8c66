import Foundation

/// Loads managed object models from the files Xcode and its model compiler write:
/// - a versioned model `Name.xcdatamodeld/` (every version; `.xccurrentversion` names the current one);
/// - a model version `Name.xcdatamodel/` (XML `contents`, or the Xcode 3 `elements` keyed archive);
/// - a bare XML `contents` file (any file name);
/// - a bare Xcode 3 `elements` file (named `elements` or `*.elements`, or any binary plist whose archive root is
///   an Xcode 3 document rather than an `NSManagedObjectModel`);
/// - a compiled versioned model `Name.momd/` (`VersionInfo.plist` names the current version) or a `Name.mom`.
public enum ModelLoader {
    /// Loads the current version of the model at `url`.
    public static func loadModel(at url: URL) throws(ModelError) -> NSManagedObjectModel {
        try loadVersions(at: url).currentModel
    }

    /// Loads every version of the model at `url`.
    public static func loadVersions(at url: URL) throws(ModelError) -> ModelVersionSet {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError(file: path, reason: "no such file or directory")
        }
        let name = url.lastPathComponent
        if isDirectory.boolValue {
            switch url.pathExtension {
            case "xcdatamodeld": return try loadVersionedPackage(url)
            case "momd": return try CompiledModelReader.loadVersionedDirectory(url)
            default:
                let model = try loadModelVersionDirectory(url)
                return ModelVersionSet(versions: [(url.deletingPathExtension().lastPathComponent, model)], currentIndex: 0)
            }
        }
        let data = try readFile(url)
        let model: NSManagedObjectModel
        if isLegacyElementsName(name) || (data.starts(with: Array("bplist".utf8)) && LegacyElementsReader.isXcode3Document(data)) {
            model = try LegacyElementsReader(file: path).read(data)
        } else if url.pathExtension == "mom" || data.starts(with: Array("bplist".utf8)) {
            model = try CompiledModelReader(file: path).read(data)
        } else {
            model = try XcdatamodelReader(file: path).read(data)
        }
        return ModelVersionSet(versions: [(versionName(ofFile: url), model)], currentIndex: 0)
    }

    /// An Xcode 3 `elements` file, by name: `elements` itself, or a copy named like `Books.xcdatamodel.elements`.
    private static func isLegacyElementsName(_ name: String) -> Bool {
        name == "elements" || name.hasSuffix(".elements")
    }

    /// The version name of a single model file: its name without extension (`Books` for `Books.mom`), and for
    /// Xcode 3 `elements` files the model's name: `Books` for `Books.xcdatamodel.elements` and for
    /// `Books.xcdatamodel/elements`.
    private static func versionName(ofFile url: URL) -> String {
        let name = url.lastPathComponent
        let parent = url.deletingLastPathComponent()
        if name == "elements", parent.pathExtension == "xcdatamodel" {
            return parent.deletingPathExtension().lastPathComponent
        }
        let stem = (name as NSString).deletingPathExtension
        if name.hasSuffix(".elements"), (stem as NSString).pathExtension == "xcdatamodel" {
            return (stem as NSString).deletingPathExtension
        }
        return stem
    }

    // MARK: Xcode packages

    private static func loadVersionedPackage(_ url: URL) throws(ModelError) -> ModelVersionSet {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelError(file: url.path, reason: "cannot list the model package (\(error.localizedDescription))")
        }
        // Version order compares names without the extension, so "Moody" precedes "Moody 2" (with it, the space
        // sorts before the dot).
        let versionNames = entries.filter { $0.hasSuffix(".xcdatamodel") }.sorted {
            ($0 as NSString).deletingPathExtension.compare(($1 as NSString).deletingPathExtension, options: [.numeric, .caseInsensitive])
                == .orderedAscending
        }
        guard !versionNames.isEmpty else {
            throw ModelError(file: url.path, reason: "the package holds no .xcdatamodel version")
        }
        var versions: [(String, NSManagedObjectModel)] = []
        for versionName in versionNames {
            let model = try loadModelVersionDirectory(url.appendingPathComponent(versionName))
            versions.append(((versionName as NSString).deletingPathExtension, model))
        }
        let currentName = try currentVersionName(in: url) ?? versionNames.last!
        guard let index = versionNames.firstIndex(of: currentName) else {
            throw ModelError(file: url.appendingPathComponent(".xccurrentversion").path,
                             reason: "names the current version \(currentName), which the package does not hold")
        }
        return ModelVersionSet(versions: versions, currentIndex: index)
    }

    /// The `_XCCurrentVersionName` of a package's `.xccurrentversion`, or nil when the package has none.
    private static func currentVersionName(in package: URL) throws(ModelError) -> String? {
        let url = package.appendingPathComponent(".xccurrentversion")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let plist = try readPropertyList(url)
        guard let name = plist["_XCCurrentVersionName"] as? String else {
            throw ModelError(file: url.path, reason: "has no _XCCurrentVersionName string")
        }
        return name
    }

    private static func loadModelVersionDirectory(_ url: URL) throws(ModelError) -> NSManagedObjectModel {
        let contents = url.appendingPathComponent("contents")
        if FileManager.default.fileExists(atPath: contents.path) {
            return try XcdatamodelReader(file: contents.path).read(try readFile(contents))
        }
        let elements = url.appendingPathComponent("elements")
        if FileManager.default.fileExists(atPath: elements.path) {
            return try LegacyElementsReader(file: elements.path).read(try readFile(elements))
        }
        if !FileManager.default.isReadableFile(atPath: url.path) {
            throw ModelError(file: url.path, reason: "the model directory cannot be read (permission denied)")
        }
        throw ModelError(file: url.path, reason: "is neither a model version (no contents or elements file) nor a model package")
    }

    // MARK: Files

    package static func readFile(_ url: URL) throws(ModelError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.isReadableFile(atPath: url.path)
                ? "cannot be read (\(error.localizedDescription))" : "cannot be read (permission denied)"
            throw ModelError(file: url.path, reason: reason)
        }
    }

    package static func readPropertyList(_ url: URL) throws(ModelError) -> [String: Any] {
        let data = try readFile(url)
        do {
            guard let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw ModelError(file: url.path, reason: "is a property list but not a dictionary")
            }
            return dictionary
        } catch let error as ModelError {
            throw error
        } catch {
            throw ModelError(file: url.path, reason: "is not a valid property list (\(error.localizedDescription))")
        }
    }
}

/// Every version of a model, in version order, and which one is current.
public struct ModelVersionSet: @unchecked Sendable {
    public var versions: [(name: String, model: NSManagedObjectModel)]
    public var currentIndex: Int

    public init(versions: [(name: String, model: NSManagedObjectModel)], currentIndex: Int) {
        self.versions = versions
        self.currentIndex = currentIndex
    }

    public var currentModel: NSManagedObjectModel { versions[currentIndex].model }
    public var currentVersionName: String { versions[currentIndex].name }

    public func model(named name: String) -> NSManagedObjectModel? {
        versions.first { $0.name == name }?.model
    }

    /// The version whose entity hashes are `storeHashes` (the one that wrote a store), else the current one,
    /// so that `--model Model.xcdatamodeld` opens any store written with one of its versions.
    public func version(matchingStoreHashes storeHashes: [String: Data]) -> (name: String, model: NSManagedObjectModel) {
        versions.first { $0.model.entityVersionHashesByName == storeHashes } ?? versions[currentIndex]
    }

    /// The index of the version whose entity hashes are exactly `storeHashes`, or nil when none is.
    public func indexOfVersion(matchingStoreHashes storeHashes: [String: Data]) -> Int? {
        versions.firstIndex { $0.model.entityVersionHashesByName == storeHashes }
    }
}
