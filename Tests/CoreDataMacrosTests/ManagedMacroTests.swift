import CoreDataMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@Managed` expands to, as text: each test holds the source a subclass writes and the expansion the compiler
/// gets, so a change to the macro shows here first. The runtime behaviour of the expansions is tested with real
/// objects in CoreDataObjectGraphTests (AppleDocumentationManagedTests).
struct ManagedMacroTests {
    private let macros = ["Managed": MacroSpec(type: ManagedMacro.self), "ManagedAccessor": MacroSpec(type: ManagedAccessorMacro.self)]

    private func expect(_ source: String, expands expanded: String, diagnostics: [DiagnosticSpec] = [],
                        sourceLocation: SourceLocation = #_sourceLocation) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    @Test func aPropertyTakesItsKeyFromItsName() {
        expect("""
            public class Recipe: NSManagedObject {
                @Managed public var name: String?
                @Managed public var minutes: Int16
            }
            """, expands: """
            public class Recipe: NSManagedObject {
                public var name: String? {
                    get {
                        managedValue(forKey: "name", keyPath: \\.name)
                    }
                    set {
                        setManagedValue(newValue, forKey: "name")
                    }
                }
                public var minutes: Int16 {
                    get {
                        managedValue(forKey: "minutes", keyPath: \\.minutes)
                    }
                    set {
                        setManagedValue(newValue, forKey: "minutes")
                    }
                }
            }
            """)
    }

    @Test func anExplicitKeyNamesAnotherProperty() {
        expect("""
            extension Recipe {
                @Managed("chef") var author: Chef?
            }
            """, expands: """
            extension Recipe {
                var author: Chef? {
                    get {
                        managedValue(forKey: "chef", keyPath: \\.author)
                    }
                    set {
                        setManagedValue(newValue, forKey: "chef")
                    }
                }
            }
            """)
    }

    /// Apple's `@NSManaged private var primitiveUpdatedAt: Date` is the primitive accessor of `updatedAt`; a name
    /// that merely starts with "primitive" (`primitives`, `primitivelyPriced`) keeps its own key.
    @Test func aPrimitiveNameStandsForItsKeysStoredValue() {
        expect("""
            extension Person {
                @Managed private var primitiveUpdatedAt: Date
                @Managed private var primitiveURL: URL?
                @Managed var primitives: Int
            }
            """, expands: """
            extension Person {
                private var primitiveUpdatedAt: Date {
                    get {
                        managedValue(forKey: "updatedAt", keyPath: \\.primitiveUpdatedAt)
                    }
                    set {
                        setManagedValue(newValue, forKey: "updatedAt")
                    }
                }
                private var primitiveURL: URL? {
                    get {
                        managedValue(forKey: "URL", keyPath: \\.primitiveURL)
                    }
                    set {
                        setManagedValue(newValue, forKey: "URL")
                    }
                }
                var primitives: Int {
                    get {
                        managedValue(forKey: "primitives", keyPath: \\.primitives)
                    }
                    set {
                        setManagedValue(newValue, forKey: "primitives")
                    }
                }
            }
            """)
    }

    @Test func xcodesToManyAccessorsCallTheLiveSet() {
        expect("""
            extension Recipe {
                @ManagedAccessor public func addToTags(_ value: Tag)
                @ManagedAccessor public func removeFromTags(_ value: Tag)
                @ManagedAccessor public func addToTags(_ values: NSSet)
                @ManagedAccessor public func removeFromTags(_ values: Set<Tag>)
            }
            """, expands: """
            extension Recipe {
                public func addToTags(_ value: Tag) {
                    mutableSetValue(forKey: "tags").add(value)
                }
                public func removeFromTags(_ value: Tag) {
                    mutableSetValue(forKey: "tags").remove(value)
                }
                public func addToTags(_ values: NSSet) {
                    mutableSetValue(forKey: "tags").union(values)
                }
                public func removeFromTags(_ values: Set<Tag>) {
                    mutableSetValue(forKey: "tags").minus(values)
                }
            }
            """)
    }

    @Test func xcodesOrderedAccessorsCallTheLiveOrderedSet() {
        expect("""
            extension Recipe {
                @ManagedAccessor public func insertIntoIngredients(_ value: Ingredient, at idx: Int)
                @ManagedAccessor public func removeFromIngredients(at idx: Int)
                @ManagedAccessor public func insertIntoIngredients(_ values: [Ingredient], at indexes: NSIndexSet)
                @ManagedAccessor public func removeFromIngredients(at indexes: NSIndexSet)
                @ManagedAccessor public func replaceIngredients(at idx: Int, with value: Ingredient)
                @ManagedAccessor public func replaceIngredients(at indexes: NSIndexSet, with values: [Ingredient])
                @ManagedAccessor public func addToIngredients(_ values: NSOrderedSet)
            }
            """, expands: """
            extension Recipe {
                public func insertIntoIngredients(_ value: Ingredient, at idx: Int) {
                    mutableOrderedSetValue(forKey: "ingredients").insert(value, at: idx)
                }
                public func removeFromIngredients(at idx: Int) {
                    mutableOrderedSetValue(forKey: "ingredients").removeObject(at: idx)
                }
                public func insertIntoIngredients(_ values: [Ingredient], at indexes: NSIndexSet) {
                    mutableOrderedSetValue(forKey: "ingredients").insert(values, at: indexes)
                }
                public func removeFromIngredients(at indexes: NSIndexSet) {
                    mutableOrderedSetValue(forKey: "ingredients").removeObjects(at: indexes)
                }
                public func replaceIngredients(at idx: Int, with value: Ingredient) {
                    mutableOrderedSetValue(forKey: "ingredients").replaceObject(at: idx, with: value)
                }
                public func replaceIngredients(at indexes: NSIndexSet, with values: [Ingredient]) {
                    mutableOrderedSetValue(forKey: "ingredients").replaceObjects(at: indexes, with: values)
                }
                public func addToIngredients(_ values: NSOrderedSet) {
                    mutableSetValue(forKey: "ingredients").union(values)
                }
            }
            """)
    }

    @Test func mistakesAreReportedAtTheAttribute() {
        expect("""
            class Recipe: NSManagedObject {
                @Managed var name: String? = "x"
                @Managed var untyped = 3
                @ManagedAccessor func shuffleTags()
            }
            """, expands: """
            class Recipe: NSManagedObject {
                var name: String? = "x"
                var untyped = 3
                func shuffleTags()
            }
            """, diagnostics: [
                DiagnosticSpec(message: "@Managed var name takes its value from the object: remove the initial value (a default belongs in "
                               + "the model, or in awakeFromInsert())", line: 2, column: 5),
                DiagnosticSpec(message: "@Managed var untyped needs a declared type (`@Managed var untyped: String?`)", line: 3, column: 5),
                DiagnosticSpec(message: "@ManagedAccessor func shuffleTags is not one of Xcode's relationship accessors: addTo<Name>(_:), "
                               + "removeFrom<Name>(_:), insertInto<Name>(_:at:), removeFrom<Name>(at:), replace<Name>(at:with:)",
                               line: 4, column: 5),
            ])
    }
}
