import Foundation

/// The targets of this package as Package.swift declares them, read from its text (running `swift package
/// dump-package` inside the suite would take the build lock the suite already holds). The manifest's style is
/// regular enough to read this way: `.target(name: "X", dependencies: [...], path: "...")`.
struct PackageManifest {
    struct Target {
        enum Kind: String { case target, executableTarget, testTarget, systemLibrary, macro }

        var kind: Kind
        var name: String
        /// Target names and product names (`.product(name: "ArgumentParser", …)`), without the package names.
        var dependencies: Set<String>
        var path: String
    }

    var targets: [Target]
    /// Every product named as a dependency, whichever package it comes from.
    var productNames: Set<String>

    /// The package's root directory, found from this file's place in Tests/PackageRulesTests.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    init(text: String) throws {
        // Whole-line comments only: URLs inside strings also contain "//".
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .joined(separator: "\n")
        targets = []
        productNames = []
        let call = /\.(target|executableTarget|testTarget|systemLibrary|macro)\(/
        var rest = Substring(code)
        while let match = rest.firstMatch(of: call) {
            let body = try Self.balanced(code: rest[match.range.upperBound...], open: "(", close: ")")
            rest = rest[body.endIndex...]
            // Skipping to the end of the body also skips any `.target(name:)` reference inside its dependencies.
            guard let kind = Target.Kind(rawValue: String(match.output.1)),
                  let name = body.firstMatch(of: /name:\s*"([^"]+)"/)?.output.1 else {
                throw ManifestError("a target call without a name near \(body.prefix(60))")
            }
            var dependencies: Set<String> = []
            if let start = body.firstMatch(of: /dependencies:\s*\[/) {
                let list = try Self.balanced(code: body[start.range.upperBound...], open: "[", close: "]")
                for product in list.matches(of: /\.product\(\s*name:\s*"([^"]+)"/) {
                    productNames.insert(String(product.output.1))
                }
                let withoutPackages = list.replacing(/package:\s*"[^"]*"/, with: "")
                dependencies = Set(withoutPackages.matches(of: /"([^"]+)"/).map { String($0.output.1) })
            }
            let defaultPath = (kind == .testTarget ? "Tests/" : "Sources/") + name
            let path = body.firstMatch(of: /path:\s*"([^"]+)"/).map { String($0.output.1) } ?? defaultPath
            targets.append(Target(kind: kind, name: String(name), dependencies: dependencies, path: path))
        }
    }

    static func load() throws -> PackageManifest {
        try PackageManifest(text: String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// The text between an opening bracket (already consumed) and its matching close, skipping string literals.
    private static func balanced(code: Substring, open: Character, close: Character) throws -> Substring {
        var depth = 1
        var inString = false
        var index = code.startIndex
        while index < code.endIndex {
            let character = code[index]
            if character == "\"" {
                inString.toggle()
            } else if !inString && character == open {
                depth += 1
            } else if !inString && character == close {
                depth -= 1
                if depth == 0 { return code[code.startIndex..<index] }
            }
            index = code.index(after: index)
        }
        throw ManifestError("no closing \(close) for \(code.prefix(60))")
    }
}

struct ManifestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The Swift files under a directory of the package, with their text.
enum SourceFiles {
    static func swiftFiles(under relativePath: String) -> [(path: String, text: String)] {
        files(under: relativePath, extensions: ["swift"])
    }

    /// The files under a directory of the package whose extension is one of `extensions`, with their text.
    static func files(under relativePath: String, extensions: Set<String>) -> [(path: String, text: String)] {
        let directory = PackageManifest.root.appendingPathComponent(relativePath)
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var files: [(path: String, text: String)] = []
        for case let url as URL in enumerator where extensions.contains(url.pathExtension) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files.append((String(url.path.dropFirst(PackageManifest.root.path.count + 1)), text))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The modules a file imports: `import X`, `@testable import X`, `@_exported import class X.Y`, `public import X`.
    static func importedModules(in text: String) -> Set<String> {
        let declaration = /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:class|struct|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)/
        var modules: Set<String> = []
        for line in text.split(separator: "\n") {
            if let match = line.prefixMatch(of: declaration) { modules.insert(String(match.output.1)) }
        }
        return modules
    }
}
