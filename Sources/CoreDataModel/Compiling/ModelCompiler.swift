import Foundation
import PropertyListCoding

/// Compiles Xcode model sources into the files Apple's model compiler (`momc`) puts in an app bundle, so that code
/// written for Apple's platforms finds `Bundle.module.url(forResource: "Model", withExtension: "momd")` on Linux too:
/// - a versioned model `NAME.xcdatamodeld/` becomes `NAME.momd/`, holding one `VERSION.mom` per version (a keyed
///   archive of the model, as ``CompiledModelWriter`` writes it) and `VersionInfo.plist` (the current version's
///   name, each version's entity hashes and checksum);
/// - a single version `NAME.xcdatamodel/` (or a bare XML `contents` or Xcode 3 `elements` file) becomes `NAME.mom`.
///
/// Apple's compiler also writes `NAME.omo`, an undocumented optimized form of the current version; Core Data reads
/// the `.mom` files when it is absent, so it is not written (docs/DEVIATIONS.md).
public enum ModelCompiler {
    /// What compiling wrote: the `.momd` directory or `.mom` file, the versions it holds in version order, and
    /// which of them is current.
    public struct Output: Sendable, Equatable {
        /// The `.momd` directory or `.mom` file written.
        public var url: URL
        /// The versions compiled, in version order (one for a `.mom`).
        public var versionNames: [String]
        /// The version `VersionInfo.plist` names current (the `.xcdatamodeld`'s `.xccurrentversion`).
        public var currentVersionName: String
    }

    /// The `VersionInfo.plist` keys of a `.momd` (Apple's names).
    public enum VersionInfoKey {
        public static let currentVersionName = "NSManagedObjectModel_CurrentVersionName"
        public static let versionHashes = "NSManagedObjectModel_VersionHashes"
        public static let versionChecksums = "NSManagedObjectModel_VersionChecksums"
    }

    /// Where compiling `source` into `destination` writes: `destination` itself when it names a `.momd` or
    /// `.mom`, otherwise `NAME.momd` (for a `.xcdatamodeld`) or `NAME.mom` inside the directory `destination`, as
    /// momc does with Xcode's resources directory.
    public static func outputURL(compiling source: URL, into destination: URL) -> URL {
        if ["momd", "mom"].contains(destination.pathExtension) { return destination }
        return destination.appendingPathComponent(compiledName(of: source))
    }

    /// `NAME.momd` for a versioned model, `NAME.mom` for anything else.
    public static func compiledName(of source: URL) -> String {
        let stem = source.lastPathComponent == "elements" || source.lastPathComponent == "contents"
            ? source.deletingLastPathComponent().deletingPathExtension().lastPathComponent
            : source.deletingPathExtension().lastPathComponent
        let name = stem.hasSuffix(".xcdatamodel") ? String(stem.dropLast(".xcdatamodel".count)) : stem
        return name + (source.pathExtension == "xcdatamodeld" ? ".momd" : ".mom")
    }

    /// Compiles the model at `source` and writes it to `outputURL(compiling: source, into: destination)`,
    /// replacing what is there. The result is written under a temporary name beside it and renamed into place, so
    /// the destination holds either the old compiled model or the whole new one, never part of one.
    @discardableResult
    public static func compile(_ source: URL, into destination: URL) throws(ModelError) -> Output {
        let versioned = source.pathExtension == "xcdatamodeld"
        let output = URL(fileURLWithPath: outputURL(compiling: source, into: destination).path, isDirectory: versioned)
        if ["momd", "mom"].contains(source.pathExtension) {
            throw ModelError(file: source.path, reason: "is already a compiled model")
        }
        if output.pathExtension != (versioned ? "momd" : "mom") {
            throw ModelError(file: output.path, reason: versioned
                ? "a versioned model (.xcdatamodeld) compiles to a .momd directory, not a .\(output.pathExtension)"
                : "a single model version compiles to a .mom file, not a .\(output.pathExtension)")
        }
        let versions = try ModelLoader.loadVersions(at: source)
        var files: [(name: String, data: Data)] = []
        for version in versions.versions {
            let data: Data
            do {
                data = try CompiledModelWriter.archive(version.model)
            } catch {
                let file = versioned ? source.appendingPathComponent(version.name + ".xcdatamodel") : source
                throw ModelError(file: file.path, reason: "cannot be compiled (\(error))")
            }
            files.append((version.name + ".mom", data))
        }
        if versioned {
            files.append(("VersionInfo.plist", versionInfo(versions)))
            try AtomicOutput.writeDirectory(files, to: output)
        } else {
            try AtomicOutput.writeFile(files[0].data, to: output)
        }
        return Output(url: output, versionNames: versions.versions.map(\.name), currentVersionName: versions.currentVersionName)
    }

    /// `VersionInfo.plist` as Apple's compiler writes it (a binary property list): the current version's name and,
    /// for each version, its entities' version hashes and its checksum.
    public static func versionInfo(_ versions: ModelVersionSet) -> Data {
        var hashes: [String: PropertyListValue] = [:]
        var checksums: [String: PropertyListValue] = [:]
        for (name, model) in versions.versions {
            hashes[name] = .dictionary(model.entityVersionHashesByName.mapValues { .data($0) })
            checksums[name] = .string(model.versionChecksum)
        }
        return BinaryPropertyListWriter().write(.dictionary([
            VersionInfoKey.currentVersionName: .string(versions.currentVersionName),
            VersionInfoKey.versionHashes: .dictionary(hashes),
            VersionInfoKey.versionChecksums: .dictionary(checksums),
        ]))
    }
}
