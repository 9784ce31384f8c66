import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import XCTest

/// A migration killed with SIGKILL at seeded points (an exact write through the fault shim, or a seeded statement,
/// or just before the commit), in WAL and rollback-journal stores: afterwards the store is either at the old
/// version with its file byte for byte as before and every value intact, or fully migrated, never in between.
/// OCD_KILLS sets the number of kills (default 24, `make stress` more); the figures are printed for RELIABILITY.md.
final class MigrationKillTests: XCTestCase {
    private typealias Support = MigrationTestSupport
    static let helper = Fixtures.projectRoot.appendingPathComponent(".build/debug/StoreStressHelper")
    static let kills = ProcessInfo.processInfo.environment["OCD_KILLS"].flatMap(Int.init).map { max(8, $0 / 10) } ?? 24

    private let v1 = """
        <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <attribute name="age" optional="YES" attributeType="Integer 16"/>
            <attribute name="remoteIdentifier" optional="YES" attributeType="String"/>
            <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
        </entity>
        <entity name="Car">
            <attribute name="plate" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
        </entity>
        """
    private let v2 = """
        <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <attribute name="age" attributeType="Integer 16" defaultValueString="7"/>
            <attribute name="remoteID" optional="YES" attributeType="String" elementID="remoteIdentifier"/>
            <attribute name="rating" attributeType="Integer 16" defaultValueString="3"/>
            <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Vehicle" inverseName="owners" inverseEntity="Vehicle"/>
        </entity>
        <entity name="Vehicle" elementID="Car">
            <attribute name="plate" attributeType="String"/>
            <relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person" elementID="owner"/>
        </entity>
        """

    private func writeModel(_ entities: String, to url: URL) throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic">
            \(entities)
            </model>
            """
        try Data(xml.utf8).write(to: url)
    }

    /// Every object's values and links as text, read through the object graph.
    private func dump(_ url: URL, model: NSManagedObjectModel) throws -> [String] {
        let context = try Support.open(url, model: model, options: [:])
        return try context.performAndWait {
            var lines: [String] = []
            for entity in model.entities {
                for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity.entityName)) {
                    var fields = [entity.entityName, object.objectID.uriRepresentation().lastPathComponent]
                    for name in entity.attributesByName.keys.sorted() { fields.append("\(name)=\(object.value(forKey: name).map { "\($0)" } ?? "nil")") }
                    for (name, relationship) in entity.relationshipsByName.sorted(by: { $0.key < $1.key }) {
                        let targets = relationship.isToMany
                            ? object.mutableSetValue(forKey: name).allObjects
                            : [object.value(forKey: name) as? NSManagedObject].compactMap { $0 }
                        fields.append("\(name)=" + targets.map { $0.objectID.uriRepresentation().lastPathComponent }.sorted().joined(separator: ","))
                    }
                    lines.append(fields.joined(separator: " "))
                }
            }
            return lines.sorted()
        }
    }

    private struct Outcome { var output: String; var killed: Bool; var status: Int32 }

    private func runHelper(_ store: URL, models: (URL, URL), environment: [String: String]) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.helper
        process.arguments = ["migrate", store.path, "0", models.0.path, models.1.path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(output: String(decoding: data, as: UTF8.self), killed: process.terminationReason == .uncaughtSignal,
                       status: process.terminationStatus)
    }

    func testKilledMigrationsLeaveTheOldVersionUntouchedOrTheNewOneComplete() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.helper.path), "StoreStressHelper is not built")
        let directory = try TemporaryDirectory.make(prefix: "migration-kill")
        let models = (directory.appendingPathComponent("v1.contents"), directory.appendingPathComponent("v2.contents"))
        try writeModel(v1, to: models.0)
        try writeModel(v2, to: models.1)
        let source = try ModelLoader.loadModel(at: models.0), destination = try ModelLoader.loadModel(at: models.1)
        var templates: [(mode: String, url: URL)] = []
        for mode in ["wal", "delete"] {
            let url = directory.appendingPathComponent("template-\(mode)/Store.sqlite")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Support.makeStore(at: url, model: source) { context in
                for index in 0..<400 {
                    let person = Support.insert("Person", ["name": "person \(index)", "remoteIdentifier": "r\(index)"], into: context)
                    if index % 3 == 0 { person.setValue(Int16(index % 90), forKey: "age") }
                    for car in 0..<(index % 4) { Support.insert("Car", ["plate": "P\(index)-\(car)", "owner": person], into: context) }
                }
            }
            if mode == "delete" { _ = try Connection(path: url.path, mode: .readWrite).setJournalMode(.delete) }
            templates.append((mode, url))
        }
        let before = try dump(templates[0].url, model: source)
        // The expected result, and the number of writes a whole migration makes, from runs without faults.
        let expectedURL = directory.appendingPathComponent("expected/Store.sqlite")
        try FileManager.default.createDirectory(at: expectedURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: templates[0].url, to: expectedURL)
        let dry = try runHelper(expectedURL, models: models, environment: [:])
        XCTAssertTrue(dry.output.contains("migrated"), dry.output)
        let writes = Int(dry.output.split(separator: "writes=").last?.prefix { $0.isNumber } ?? "") ?? 0
        XCTAssertGreaterThan(writes, 10)
        let after = try dump(expectedURL, model: destination)
        XCTAssertEqual(after.count, before.count)
        let statements = try SQLiteStoreMigrator.plan(storeAt: templates[0].url.path, sourceModel: source, destinationModel: destination,
                                                      mapping: NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)).statements.count

        var random = SeededRandom(seed: ProcessInfo.processInfo.environment["OCD_SEED"].flatMap(UInt64.init) ?? 19)
        var killed = 0, old = 0, new = 0
        for attempt in 0..<Self.kills {
            let template = templates[attempt % templates.count]
            let url = directory.appendingPathComponent("run-\(attempt)/Store.sqlite")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: template.url, to: url)
            let bytes = try Data(contentsOf: url)
            // Two in three die at an exact write; the others before a seeded statement or just before the commit.
            let environment: [String: String]
            let point: String
            if attempt % 3 != 2 {
                point = "write \(1 + random.next(below: UInt64(writes)))"
                environment = ["OCD_FAULT": "kill:\(point.dropFirst(6))"]
            } else {
                let step = attempt % 6 == 5 ? statements : Int(random.next(below: UInt64(statements)))
                point = "statement \(step) of \(statements)"
                environment = ["OCD_MIGRATION_KILL_STEP": String(step)]
            }
            let outcome = try runHelper(url, models: models, environment: environment)
            let label = "\(template.mode), killed at \(point)"
            if outcome.killed { killed += 1 } else { XCTAssertTrue(outcome.output.contains("migrated"), "\(label): \(outcome.output)") }
            let hashes = try SQLiteStoreFile(path: url.path, mode: .readWrite).metadata.versionHashes
            if hashes == source.entityVersionHashesByName {
                old += 1
                XCTAssertEqual(try dump(url, model: source), before, label)
                XCTAssertEqual(try Data(contentsOf: url), bytes, "\(label): the old version is byte for byte the file before the migration")
            } else if hashes == destination.entityVersionHashesByName {
                new += 1
                XCTAssertEqual(try dump(url, model: destination), after, label)
            } else {
                XCTFail("\(label): the store is at neither version")
            }
            let check = try Connection(path: url.path, mode: .readOnly).scalar("PRAGMA integrity_check")?.stringValue
            XCTAssertEqual(check, "ok", label)
        }
        XCTAssertGreaterThan(killed, Self.kills / 2, "most runs died mid-migration")
        XCTAssertGreaterThan(old, 0)
        print("migration kills: \(Self.kills) runs, \(killed) killed, \(old) left at the old version (byte-identical), \(new) fully migrated; \(writes) writes and \(statements) statements per migration")
    }
}
