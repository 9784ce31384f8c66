import ArgumentParser
import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import StoreAccess

/// `coredata schema STORE|MODEL`: entities with their hashes and row counts, attributes, relationships, and for a
/// store its metadata and whether the model's hashes match it.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show the entities, attributes and relationships of a store or a model.",
        discussion: """
            SOURCE is a Core Data SQLite store (its model is read from the store's model cache, or inferred from \
            its tables), an XML or binary store (with --model; an XML store's model is otherwise inferred from the \
            file), an Xcode model (.xcdatamodeld, .xcdatamodel, contents) or a compiled model (.momd, .mom). \
            The JSON format is stable and documented in docs/SCHEMA-JSON.md.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "A store (.sqlite, XML or binary) or a model (.xcdatamodeld, .xcdatamodel, .momd, .mom).")
    var source: String

    @Option(name: .long, help: "A model to use for the store instead of the one it carries.")
    var model: String?

    @Option(name: .long, help: "The store type: sqlite, xml, binary, memory or a registered custom type; detected from the file when not given.")
    var type: String?

    @Option(name: .long, help: "Output format: text or json.")
    var format: Format = .text

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        let kind: StoreKind?
        do {
            kind = try type.map(StoreKind.init(typeName:))
        } catch {
            throw CommandFailure(wrapping: error)
        }
        let report = try SchemaReportBuilder.build(sourcePath: source, modelPath: model, kind: kind)
        switch format {
        case .text: print(SchemaTextRenderer.render(report), terminator: "")
        case .json: print(try SchemaJSONRenderer.render(report))
        }
    }
}
