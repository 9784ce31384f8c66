import CoreDataModel
import Predicates
import SQLiteDatabase

/// The clauses of a compiled fetch without its select list, for a store that chooses its own columns and windows
/// (the SQLite store's select plans, keyset windows and dictionary results).
public struct FetchClauses: Sendable {
    /// `LEFT JOIN`s the predicate and sort need, each with a leading space; the fetched table is `t0`.
    public var joins: String
    /// The predicate as SQL over `t0` and the joins, without the entity restriction; nil for no predicate.
    public var condition: String?
    public var conditionBindings: [SQLiteValue]
    /// The sort terms in order (`t0.ZNAME COLLATE ocd_compare`), each with its direction.
    public var orderTerms: [(sql: String, ascending: Bool)]
    /// The SQL of each requested key path column (`t1.ZNAME` for `chef.name`, a correlated subquery for
    /// `ingredients.@count`), sharing the joins.
    public var columnTerms: [String]
}

extension PredicateSQLCompiler {
    /// Compiles a predicate and sort descriptors for `entityName` into clauses over the alias `t0`, with every
    /// constant bound. Throws what `fetch` throws for constructs SQL cannot express with the evaluator's meaning.
    public func clauses(entityName: String, predicate: PredicateNode?, sortDescriptors: [Predicates.NSSortDescriptor],
                        columns keyPaths: [String] = [])
        throws(PredicateSQLError) -> FetchClauses
    {
        let format = predicate?.predicateFormat ?? "TRUEPREDICATE"
        guard let entity = model.entitiesByName[entityName] else {
            throw PredicateSQLError(construct: "entity", constructFormat: entityName, predicateFormat: format,
                                    reason: "the model has no entity named '\(entityName)'")
        }
        let compilation = PredicateCompilation(layout: layout, model: model, rootEntity: entity, predicateFormat: format)
        let condition = try predicate.map { node throws(PredicateSQLError) in try compilation.compile(node) }
        var terms: [(String, Bool)] = []
        for descriptor in sortDescriptors {
            // One descriptor at a time, so each term keeps its own direction.
            if let term = try compilation.orderBy([Predicates.NSSortDescriptor(key: descriptor.key, ascending: true, comparison: descriptor.comparison)]) {
                terms.append((term, descriptor.ascending))
            }
        }
        var columnTerms: [String] = []
        for keyPath in keyPaths {
            // A column holds one value per row: attributes, to-one paths, and a to-many relationship's collection
            // operator (`ingredients.@count`, `recipes.@avg.minutes`) as the same correlated subquery a predicate uses.
            let resolved = try compilation.resolve(keyPath: keyPath, in: compilation.root, format: keyPath,
                                                   construct: "fetched key path")
            guard case .value(let column, _) = try compilation.applyingCollectionOperator(resolved, format: keyPath),
                  column.bindings.isEmpty else {
                throw PredicateSQLError(construct: "fetched key path", constructFormat: keyPath, predicateFormat: keyPath,
                                        reason: "'\(keyPath)' crosses a to-many relationship; fetch attributes, to-one paths or a collection operator (@count, @sum, @avg, @min, @max)")
            }
            columnTerms.append(column.sql)
        }
        let fragment = condition?.fragment
        let isTrivial = fragment?.sql == "1"
        return FetchClauses(
            joins: compilation.root.joinClause,
            condition: isTrivial ? nil : fragment?.sql,
            conditionBindings: isTrivial ? [] : fragment?.bindings ?? [],
            orderTerms: terms,
            columnTerms: columnTerms)
    }
}
