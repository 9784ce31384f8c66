import CoreDataSQLiteFormat
import Foundation
import PropertyListCoding
import SQLiteDatabase

/// Seed inputs for each target, gathered from directories of real files: stores (`*.sqlite`: their metadata
/// plist, model cache and schema), models (`contents`, `elements`, `*.mom`, `*.plist`, `*.xml`), plus a few of our
/// own. Pass copies of fixtures, never the originals: opening a WAL store writes beside it.
public enum FuzzSeeds {
    public static func collect(from roots: [URL]) -> [FuzzTarget: [[UInt8]]] {
        var seeds: [FuzzTarget: [[UInt8]]] = [:]
        for target in FuzzTarget.allCases { seeds[target] = builtIn(target) }
        for root in roots {
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in files {
                add(url, to: &seeds)
            }
        }
        return seeds
    }

    private static func add(_ url: URL, to seeds: inout [FuzzTarget: [[UInt8]]]) {
        let name = url.lastPathComponent
        guard let data = try? Data(contentsOf: url), data.count <= 4 << 20 else { return }
        let bytes = [UInt8](data)
        switch url.pathExtension {
        case "sqlite": addStore(url, to: &seeds)
        case "predicate": seeds[.predicateParser, default: []].append(bytes)
        case "mom", "omo": seeds[.keyedArchive, default: []].append(bytes); seeds[.binaryPropertyList, default: []].append(bytes)
        case "plist", "xml", "xccurrentversion":
            seeds[BinaryPropertyListReader.hasSignature(bytes) ? .binaryPropertyList : .xmlPropertyList, default: []].append(bytes)
            if url.pathExtension == "xml" { seeds[.xcdatamodelContents, default: []].append(bytes) }
            // XML stores, such as Xcode's mapping models (`xcmapping.xml`).
            if url.pathExtension == "xml" && String(decoding: bytes.prefix(512), as: UTF8.self).contains("<database>") {
                seeds[.xmlStore, default: []].append(bytes)
            }
        default:
            if name == "contents" { seeds[.xcdatamodelContents, default: []].append(bytes) }
            if name == "elements" || name.hasSuffix(".elements") {
                seeds[.legacyElements, default: []].append(bytes)
                seeds[.keyedArchive, default: []].append(bytes)
            }
            if name == ".xccurrentversion" { seeds[.xmlPropertyList, default: []].append(bytes) }
        }
    }

    /// A store's metadata plist, its model cache (raw and inflated) and its text, as seeds.
    private static func addStore(_ url: URL, to seeds: inout [FuzzTarget: [[UInt8]]]) {
        guard let connection = try? Connection(path: url.path, mode: .readOnly, busyTimeout: .seconds(1)) else { return }
        if let plist = try? connection.scalar("SELECT Z_PLIST FROM Z_METADATA LIMIT 1")?.blobValue {
            seeds[.binaryPropertyList, default: []].append(plist)
        }
        if let cache = try? connection.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")?.blobValue, !cache.isEmpty {
            seeds[.modelCache, default: []].append(cache)
            if let archive = try? ModelCache.inflate(cache, file: url.path) {
                seeds[.keyedArchive, default: []].append(archive)
                seeds[.binaryPropertyList, default: []].append(archive)
            }
        }
        if let names = try? connection.query("SELECT Z_NAME FROM Z_PRIMARYKEY").compactMap({ $0[0].stringValue }) {
            seeds[.terminalSanitizer, default: []].append(Array(names.joined(separator: "\u{1B}\u{0}").utf8))
            // Entity names steer the schema recipe's text choices.
            seeds[.modelInference, default: []].append(Array(names.joined().utf8))
        }
    }

    /// Seeds of our own, small enough to keep in the source.
    static func builtIn(_ target: FuzzTarget) -> [[UInt8]] {
        switch target {
        case .predicateParser:
            return [
                "name == \"Ann\"", "age > 3 AND name BEGINSWITH[cd] 'zo'", "ANY pets.name IN {'Rex', 'Max'}",
                "SUBQUERY(pets, $p, $p.weight > 3).@count BETWEEN {1, 2}", "NOT (name == nil OR age == nil)",
                "name MATCHES '[A-Z].*' || nickname LIKE[c] 'a?b*'", "FUNCTION(name, 'uppercaseString') == 'X'",
                "TERNARY(age > 3, 'old', 'young') == 'old'", "scores[FIRST] == 1 AND scores[SIZE] >= 2",
                "CAST(0, \"NSDate\") < born", "$x.name == 'a' AND %K == %@", "@sum.items.price > 10.5e3",
                "0x1F == 31 && 0b101 == 5 && 0o17 == 15", "\"\\u00e9\\x41\\101\" == name", "TRUEPREDICATE",
                "ALL children.age >= -1 AND NONE tags == 'x'", "name IN[cd] \"Straße\"", "a.b.c.@count == 2 * (3 + 4) ** 2",
            ].map { Array($0.utf8) }
        case .terminalSanitizer:
            return ["plain", "\u{1B}]0;title\u{07}", "bidi\u{202E}x", "c1\u{85}\u{9B}", "zw\u{200B}\u{FEFF}",
                    "👩‍👩‍👧 می‌خواهم", "tab\tline\nnul\u{0}"].map { Array($0.utf8) } + [[0xFF, 0xC0, 0x80, 0xED, 0xA0, 0x80]]
        case .modelInference:
            return [[], [3, 1, 0, 5, 2, 9, 1, 4], Array(0...255)]
        case .binaryPropertyList, .keyedArchive:
            let value: PropertyListValue = .dictionary([
                "a": .array([.integer(-1), .real(2.5), .bool(true), .string("é"), .data(Data([1, 2])), .uid(3)]),
                "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(1)]),
                "$objects": .array([.string("$null"), .dictionary(["$class": .uid(2), "NS.string": .string("x")]),
                                    .dictionary(["$classname": .string("NSString"), "$classes": .array([.string("NSString"), .string("NSObject")])])]),
            ])
            return [Array((try? PropertyList.write(value, format: .binary)) ?? Data())]
        case .xmlPropertyList:
            let value: PropertyListValue = .dictionary(["k": .array([.integer(1), .string("<&>"), .date(Date(timeIntervalSince1970: 0))])])
            return [Array((try? PropertyList.write(value, format: .xml)) ?? Data())]
        case .xcdatamodelContents:
            return [Array("""
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="A" representedClassName="A" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <relationship name="bs" toMany="YES" deletionRule="Cascade" destinationEntity="B" inverseName="a" inverseEntity="B"/>
                    </entity>
                    <entity name="B" parentEntity="C"><relationship name="a" maxCount="1" destinationEntity="A" inverseName="bs" inverseEntity="A"/></entity>
                    <entity name="C" isAbstract="YES"><attribute name="n" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/></entity>
                </model>
                """.utf8)]
        case .legacyElements, .modelCache:
            return []
        case .xmlStore:
            return [FuzzBodies.atomicStoreSeed(xml: true)]
        case .binaryStore:
            return [FuzzBodies.atomicStoreSeed(xml: false)]
        }
    }
}
