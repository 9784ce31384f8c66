import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase

/// A generated store for query tests: people (some of them students) with pets, an employer and clubs, holding
/// Unicode text and NULLs, written with the layout's own DDL; and the same objects as dictionaries for the
/// in-memory evaluator.
final class QueryTestStore: @unchecked Sendable {
    // Unchecked: after init only `lock`-guarded queries touch the connection; the dictionaries are read-only.
    private let lock = NSLock()
    let model: NSManagedObjectModel
    let layout: StoreLayout
    let connection: Connection
    let directory: URL
    /// Person (and Student) objects as dictionaries, by primary key.
    private(set) var people: [Int64: [String: Any]] = [:]
    /// The primary keys of students.
    private(set) var studentKeys: Set<Int64> = []

    static let names: [String?] = [
        "Zoë", "zoe", "ZOE", "Zoe\u{308}", "Straße", "STRASSE", "strasse", "İstanbul", "istanbul", "ıstanbul",
        "ISTANBUL", "Ærø", "café", "cafe\u{301}", "CAFÉ", "naïve", "😀 smile", "emoji 👩‍👩‍👧", "Ångström", "angstrom",
        "O'Brien", "a%b_c", "x*y?z", "", "abc", "ABC", "Abc", "\u{10FFFF}end", "\u{10FFFF}", "tab\tsep", "日本語",
        "ümlaut", "Ümlaut", "résumé", "RÉSUMÉ", "resume", "ﬁle", "file", "Rex", "rexy", nil, "Ma\u{E000}x", "Ma😀x",
    ]
    static let petNames: [String?] = ["Rex", "rex", "Réx", "Fido", "Ωmega", nil, "Bébé", "Max", "Xu"]
    static let clubLabels = ["Chess", "chess", "Échecs", "Go", "Bridge"]
    static let companyTitles: [String?] = ["Acme", "acme", "Åcme", "Globex", nil, "Initech", "Umbrella"]

    static func makeModel() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, indexed: Bool = false) -> NSAttributeDescription {
            let attribute = NSAttributeDescription(name: name, type: type)
            attribute.isIndexed = indexed
            return attribute
        }
        func relationship(_ name: String, to destination: String, inverse: String, toOne: Bool) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
            relationship.inverseRelationshipName = inverse
            relationship.inverseEntityName = destination
            relationship.maxCount = toOne ? 1 : 0
            return relationship
        }
        let person = NSEntityDescription(name: "Person")
        person.setProperties([
            attribute("name", .stringAttributeType, indexed: true), attribute("nickname", .stringAttributeType),
            attribute("age", .integer32AttributeType), attribute("score", .doubleAttributeType),
            attribute("born", .dateAttributeType), attribute("active", .booleanAttributeType),
            attribute("token", .UUIDAttributeType), attribute("home", .URIAttributeType),
            {
                let note = attribute("note", .stringAttributeType)
                note.isTransient = true
                return note
            }(),
            attribute("photo", .transformableAttributeType),
            relationship("employer", to: "Company", inverse: "employees", toOne: true),
            relationship("pets", to: "Pet", inverse: "owner", toOne: false),
            relationship("clubs", to: "Club", inverse: "members", toOne: false),
        ])
        let student = NSEntityDescription(name: "Student")
        student.superentityName = "Person"
        student.setProperties([attribute("school", .stringAttributeType)])
        let company = NSEntityDescription(name: "Company")
        company.setProperties([
            attribute("title", .stringAttributeType), attribute("headcount", .integer64AttributeType),
            relationship("employees", to: "Person", inverse: "employer", toOne: false),
        ])
        let pet = NSEntityDescription(name: "Pet")
        pet.setProperties([
            attribute("name", .stringAttributeType), attribute("weight", .doubleAttributeType),
            relationship("owner", to: "Person", inverse: "pets", toOne: true),
        ])
        let club = NSEntityDescription(name: "Club")
        club.setProperties([
            attribute("label", .stringAttributeType),
            relationship("members", to: "Person", inverse: "clubs", toOne: false),
        ])
        return NSManagedObjectModel(entities: [person, student, company, pet, club])
    }

    init(personCount: Int = 300) throws {
        model = Self.makeModel()
        layout = StoreLayout(model: model)
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("query-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        connection = try Connection(path: directory.appendingPathComponent("Query.sqlite").path, mode: .create)
        for statement in layout.schemaStatements(model: model) { try connection.execute(sql: statement) }
        try PredicateSQLFunctions.register(on: connection)
        try connection.execute(sql: "BEGIN")
        try populate(personCount: personCount)
        try connection.execute(sql: "COMMIT")
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    private func column(_ property: String, _ entity: String) -> String {
        layout.columns(forProperty: property, ofEntity: entity)!.value
    }

    private func insert(_ entity: String, key: Int64, _ values: [String: SQLiteValue]) throws {
        let table = layout.table(forEntity: entity)!.name
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + values.keys.map { column($0, entity) }
        let arguments: [SQLiteValue] = [.integer(key), .integer(Int64(layout.numbering[entity]!)), .integer(1)]
            + values.keys.map { values[$0]! }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        try connection.execute(
            sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders))", arguments: arguments)
    }

    private static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    private func populate(personCount: Int) throws {
        var companies: [[String: Any]] = []
        for (index, title) in Self.companyTitles.enumerated() {
            let size = Int64(index * 60)
            try insert("Company", key: Int64(index + 1), ["title": Self.text(title), "headcount": .integer(size)])
            var company: [String: Any] = ["headcount": size]
            if let title { company["title"] = title }
            companies.append(company)
        }
        var clubs: [[String: Any]] = []
        for (index, label) in Self.clubLabels.enumerated() {
            try insert("Club", key: Int64(index + 1), ["label": .text(label)])
            clubs.append(["label": label])
        }
        let join = layout.joinTable(forRelationship: "clubs", ofEntity: "Person")!
        let personColumn = join.entityName == "Person" ? join.sourceKeyColumn : join.destinationKeyColumn
        let clubColumn = join.entityName == "Person" ? join.destinationKeyColumn : join.sourceKeyColumn
        var petKey: Int64 = 1
        for index in 0..<personCount {
            let key = Int64(index + 1)
            let isStudent = index % 6 == 5
            var person: [String: Any] = [:]
            var values: [String: SQLiteValue] = [:]
            let name = index % 17 == 0 ? nil : Self.names[index % Self.names.count]
            values["name"] = Self.text(name); person["name"] = name
            let nickname = index % 5 == 0 ? nil : Self.names[(index * 7 + 3) % Self.names.count]
            values["nickname"] = Self.text(nickname); person["nickname"] = nickname
            if index % 11 != 0 {
                let age = (index * 37) % 90
                values["age"] = .integer(Int64(age)); person["age"] = age
            }
            if index % 13 != 0 {
                let score = Double((index * 13) % 100) / 4
                values["score"] = .real(score); person["score"] = score
            }
            if index % 23 != 0 {
                let born = Date(timeIntervalSinceReferenceDate: Double(index) * 86_400 * 37 - 300_000_000)
                values["born"] = .real(born.timeIntervalSinceReferenceDate); person["born"] = born
            }
            if index % 19 != 0 {
                let active = index % 3 == 0
                values["active"] = .integer(active ? 1 : 0); person["active"] = active
            }
            let token = UUID(uuidString: "00000000-0000-4000-8000-00000000000\(index % 10)")!
            values["token"] = .blob(withUnsafeBytes(of: token.uuid) { Array($0) }); person["token"] = token
            let home = URL(string: "https://example.com/\(index % 4)")!
            values["home"] = .text(home.absoluteString); person["home"] = home
            if index % 4 != 0 {
                let company = index % Self.companyTitles.count
                values["employer"] = .integer(Int64(company + 1)); person["employer"] = companies[company]
            }
            if isStudent {
                let school = ["North", "south", "Nørd", "ÉCOLE", "école"][index % 5]
                values["school"] = .text(school); person["school"] = school
                studentKeys.insert(key)
            }
            try insert(isStudent ? "Student" : "Person", key: key, values)

            var pets: [[String: Any]] = []
            for petIndex in 0..<(index % 5) {
                let petName = Self.petNames[(index + petIndex * 3) % Self.petNames.count]
                let weight: Double? = (index + petIndex) % 7 == 0 ? nil : Double((index * 3 + petIndex * 11) % 40) / 2
                try insert("Pet", key: petKey, [
                    "name": Self.text(petName), "weight": weight.map { .real($0) } ?? .null, "owner": .integer(key),
                ])
                var pet: [String: Any] = [:]
                if let petName { pet["name"] = petName }
                if let weight { pet["weight"] = weight }
                pets.append(pet)
                petKey += 1
            }
            person["pets"] = pets
            var memberships: [[String: Any]] = []
            for (clubIndex, club) in clubs.enumerated() where (index >> clubIndex) & 1 == 1 && index % 3 != 1 {
                try connection.execute(
                    sql: "INSERT INTO \(join.name) (\(personColumn), \(clubColumn)) VALUES (?, ?)",
                    arguments: [.integer(key), .integer(Int64(clubIndex + 1))])
                memberships.append(club)
            }
            person["clubs"] = memberships
            people[key] = person
        }
    }

    /// The rows of a compiled query, run under the lock (tests run in parallel).
    func rows(_ query: SQLQuery) throws -> [[SQLiteValue]] {
        try lock.withLock { try connection.query(query.sql, arguments: query.bindings) }
    }

    /// The primary keys the compiled fetch returns.
    func fetchKeys(_ query: SQLQuery) throws -> Set<Int64> {
        let rows = try rows(query)
        return Set(rows.compactMap { $0.first?.int64Value })
    }

    /// The primary keys of the objects (of `keys`) that the evaluator accepts.
    func evaluatedKeys(_ predicate: Predicates.NSPredicate, among keys: some Sequence<Int64>) throws -> Set<Int64> {
        var accepted = Set<Int64>()
        for key in keys where try PredicateEvaluator(evaluatedObject: people[key]!).evaluate(predicate.predicateNode) {
            accepted.insert(key)
        }
        return accepted
    }
}
