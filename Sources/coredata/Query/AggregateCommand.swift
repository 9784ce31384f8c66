import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess
import Predicates

/// `coredata aggregate STORE ENTITY [PREDICATE] --group-by KEY --count --min K …`: dictionary results with
/// grouping, computed by the store.
struct AggregateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggregate",
        abstract: "Count, sum, average, minimum and maximum per group, computed by the store.",
        discussion: "Example: coredata aggregate Quakes.sqlite Quake --group-by place --count --max magnitude --avg magnitude")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The entity to aggregate.", completion: .custom(StoreCompletion.entities)) var entity: String
    @Argument(help: "A predicate, in NSPredicate format.") var predicate: String?
    @OptionGroup var predicateInputs: PredicateInputs
    @Option(name: .customLong("group-by"), help: "Keys to group by, comma separated.", completion: .custom(StoreCompletion.keyPaths)) var groupBy: String?
    @Flag(help: "Count the objects of each group.") var count = false
    @Option(help: "The minimum of a key (repeatable).") var min: [String] = []
    @Option(help: "The maximum of a key (repeatable).") var max: [String] = []
    @Option(help: "The average of a key (repeatable).") var avg: [String] = []
    @Option(help: "The sum of a key (repeatable).") var sum: [String] = []
    @Option(help: "A predicate on the groups (HAVING), over the aggregate names, e.g. 'count > 2'.") var having: String?
    @Option(parsing: .unconditional, help: "Sort keys, comma separated; a leading - sorts descending.") var sort: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if !count && min.isEmpty && max.isEmpty && avg.isEmpty && sum.isEmpty && groupBy == nil {
            throw ValidationError("give at least one of --group-by, --count, --min, --max, --avg, --sum")
        }
    }

    func run() throws {
        global.apply()
        let session = try storeOptions.open()
        let entityDescription = try session.entity(named: entity)
        let groups = groupBy.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        var columns: [Any] = []
        var names: [String] = []
        for key in groups {
            try session.validateKeyPath(key, from: entityDescription)
            columns.append(key)
            names.append(key)
        }
        func aggregate(_ function: String, _ label: String, _ key: String) throws {
            try session.validateKeyPath(key, from: entityDescription)
            let name = "\(label)_\(key)"
            let expression = Predicates.NSExpression(forFunction: function, arguments: [Predicates.NSExpression(forKeyPath: key)])
            columns.append(NSExpressionDescription(name: name, expression: expression))
            names.append(name)
        }
        if count {
            let expression = Predicates.NSExpression(forFunction: "count:", arguments: [Predicates.NSExpression.expressionForEvaluatedObject()])
            columns.append(NSExpressionDescription(name: "count", expression: expression, resultType: .integer64AttributeType))
            names.append("count")
        }
        for key in min { try aggregate("min:", "min", key) }
        for key in max { try aggregate("max:", "max", key) }
        for key in avg { try aggregate("average:", "avg", key) }
        for key in sum { try aggregate("sum:", "sum", key) }
        let request = NSFetchRequest<FetchedDictionary>(entityName: entityDescription.entityName)
        request.resultType = .dictionaryResultType
        request.predicate = try predicateInputs.predicate(predicate)
        request.propertiesToFetch = columns
        request.propertiesToGroupBy = groups.isEmpty ? nil : groups
        request.havingPredicate = try predicateInputs.predicate(having)
        request.sortDescriptors = try FetchOptions.sortDescriptors(sort, entity: entityDescription, session: session)
        let rows = try session.context.performAndWait { try session.context.fetch(request) }
        let writer = ResultWriter(columns: names, settings: output.settings)
        for row in rows { writer.write(names.map { CellValue(row[$0]) }) }
        writer.finish()
    }
}
