import Foundation
import KeyValueCoding
import Predicates
import Testing

/// A class that reads its properties by key, standing in for a managed object.
private final class Department: KeyValueCoding, CustomStringConvertible {
    let name: String
    var employees: [Employee] = []

    init(name: String) { self.name = name }

    func value(forKey key: String) -> Any? {
        switch key {
        case "name": name
        case "employees": employees
        default: nil
        }
    }

    var description: String { "Department(\(name))" }
}

private final class Employee: KeyValueCoding {
    let name: String
    let salary: Double
    unowned let department: Department

    init(name: String, salary: Double, department: Department) {
        self.name = name
        self.salary = salary
        self.department = department
    }

    func value(forKey key: String) -> Any? {
        switch key {
        case "name": name
        case "salary": salary
        case "department": department
        default: nil
        }
    }
}

@Suite("Evaluation on key-value-coding objects")
struct ObjectEvaluationTests {
    private static func company() -> (Department, Department) {
        let sales = Department(name: "Sales"), research = Department(name: "Research")
        sales.employees = [Employee(name: "Ann", salary: 50_000, department: sales),
                           Employee(name: "Bob", salary: 70_000, department: sales)]
        research.employees = [Employee(name: "Cléa", salary: 90_000, department: research)]
        return (sales, research)
    }

    @Test("Objects given as %@ compare by identity, through to-one and to-many key paths")
    func objectIdentity() {
        let (sales, research) = Self.company()
        let inSales = NSPredicate(format: "department == %@", sales)
        #expect(sales.employees.allSatisfy { inSales.evaluate(with: $0) })
        #expect(!research.employees.contains { inSales.evaluate(with: $0) })
        #expect(NSPredicate(format: "department.name == 'Sales'").evaluate(with: sales.employees[0]))
        let hasAnn = NSPredicate(format: "ANY employees.name == %@", "Ann")
        #expect([sales, research].filtered(using: hasAnn).map(\.name) == ["Sales"])
        #expect(NSPredicate(format: "%@ IN employees", sales.employees[1]).evaluate(with: sales))
        #expect(!NSPredicate(format: "%@ IN employees", sales.employees[1]).evaluate(with: research))
        #expect(NSPredicate(format: "employees.@avg.salary == 60000").evaluate(with: sales))
        #expect(NSPredicate(format: "SUBQUERY(employees, $e, $e.salary > 60000).@count == 1").evaluate(with: sales))
        #expect(NSPredicate(format: "employees[FIRST].department == SELF").evaluate(with: sales))
    }

    @Test("NSArray and NSSet filtering")
    func foundationCollections() {
        let names = NSArray(array: ["Ann", "bob", "Cléa"])
        #expect(names.filtered(using: NSPredicate(format: "SELF BEGINSWITH[cd] 'c'")) as? [String] == ["Cléa"])
        let set = NSSet(array: [1, 2, 3, 4])
        #expect(Set(set.filtered(using: NSPredicate(format: "SELF > 2")).compactMap { $0.base as? Int }) == [3, 4])
    }
}
