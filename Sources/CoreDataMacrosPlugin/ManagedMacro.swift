import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Managed`, Linux's `@NSManaged` on a property: writes its accessors (the key is the property's name unless
/// given). The expansion calls API of `NSManagedObject` (`managedValue(forKey:keyPath:)`,
/// `setManagedValue(_:forKey:)`), so the runtime behaviour lives in the library, not here.
public struct ManagedMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            throw MacroError("@Managed applies to a property (`@Managed var name: String?`); Xcode's relationship accessor "
                             + "functions take @ManagedAccessor")
        }
        guard variable.bindingSpecifier.tokenKind == .keyword(.var), variable.bindings.count == 1,
              let binding = variable.bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
            throw MacroError("@Managed applies to one `var` at a time (`@Managed var name: String?`)")
        }
        guard binding.typeAnnotation != nil else {
            throw MacroError("@Managed var \(identifier.text) needs a declared type (`@Managed var \(identifier.text): String?`)")
        }
        guard binding.initializer == nil else {
            throw MacroError("@Managed var \(identifier.text) takes its value from the object: remove the initial value "
                             + "(a default belongs in the model, or in awakeFromInsert())")
        }
        guard binding.accessorBlock == nil else {
            throw MacroError("@Managed var \(identifier.text) already has accessors: @Managed writes them")
        }
        if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) {
            throw MacroError("@Managed var \(identifier.text) must be an instance property: Core Data properties belong to objects")
        }
        // A property named with backticks (`` `default` ``) has the key without them.
        let name = identifier.text.hasPrefix("`") ? String(identifier.text.dropFirst().dropLast()) : identifier.text
        let key = try explicitKey(node) ?? primitiveKey(name) ?? name
        return [
            "get { managedValue(forKey: \(literal: key), keyPath: \\.\(identifier.trimmed)) }",
            "set { setManagedValue(newValue, forKey: \(literal: key)) }",
        ]
    }
}

/// `@ManagedAccessor`, Linux's `@objc(addTagsObject:) @NSManaged` on a bodiless function named as Xcode names a to-many
/// relationship's accessors (`addToTags(_:)`, `removeFromTags(_:)`, `insertIntoSteps(_:at:)`, …): writes the body,
/// a call on the object's live view of the relationship (`mutableSetValue(forKey:)`, `mutableOrderedSetValue(forKey:)`).
public struct ManagedAccessorMacro: BodyMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingBodyFor declaration: some DeclSyntaxProtocol & WithOptionalCodeBlockSyntax,
        in context: some MacroExpansionContext
    ) throws -> [CodeBlockItemSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self) else {
            throw MacroError("@ManagedAccessor applies to a relationship accessor function; properties take @Managed")
        }
        guard function.body == nil else {
            throw MacroError("@ManagedAccessor func \(function.name.text) must have no body: the macro writes it, as @NSManaged does")
        }
        let name = function.name.text
        let parameters = function.signature.parameterClause.parameters.map(Parameter.init)
        guard let accessor = Accessor(name: name, parameters: parameters) else {
            throw MacroError("@ManagedAccessor func \(name) is not one of Xcode's relationship accessors: addTo<Name>(_:), "
                             + "removeFrom<Name>(_:), insertInto<Name>(_:at:), removeFrom<Name>(at:), replace<Name>(at:with:)")
        }
        let key = try ManagedMacro.explicitKey(node) ?? accessor.relationship.prefix(1).lowercased() + accessor.relationship.dropFirst()
        return [CodeBlockItemSyntax(item: .expr(accessor.call(key)))]
    }
}

extension ManagedMacro {
    /// The key whose stored value a property named `primitive<Key>` stands for, or nil for another name: Apple's
    /// `@NSManaged var primitiveUpdatedAt: Date` is Core Data's primitive accessor of `updatedAt` (the runtime answers
    /// `primitive<Key>` for every modelled key), which custom accessors and `awakeFromInsert()` use.
    static func primitiveKey(_ name: String) -> String? {
        let rest = name.dropFirst("primitive".count)
        guard name.hasPrefix("primitive"), let first = rest.first, first.isUppercase else { return nil }
        // `primitiveURL` stands for `URL`, as key-value coding keeps a leading acronym's case.
        if let second = rest.dropFirst().first, second.isUppercase { return String(rest) }
        return first.lowercased() + rest.dropFirst()
    }

    /// The key written as the macro's argument (`@Managed("other_key")`), or nil without one.
    static func explicitKey(_ node: AttributeSyntax) throws -> String? {
        guard let argument = node.arguments?.as(LabeledExprListSyntax.self)?.first else { return nil }
        // Plain text only: an interpolation or an escape would make the key something else than what is written.
        let segments = argument.expression.as(StringLiteralExprSyntax.self)?.segments
        let parts = segments?.compactMap { $0.as(StringSegmentSyntax.self)?.content.text } ?? []
        let key = parts.joined()
        guard let segments, parts.count == segments.count, !key.isEmpty, !key.contains("\\") else {
            throw MacroError("\(node.attributeName.trimmedDescription) takes the key as a string literal: @Managed(\"name\")")
        }
        return key
    }
}

/// One parameter of an accessor function: its label, the name the body uses, and whether it takes many objects or
/// many indexes.
private struct Parameter {
    var label: String
    var name: String
    var isCollection: Bool

    init(_ syntax: FunctionParameterSyntax) {
        label = syntax.firstName.text
        name = (syntax.secondName ?? syntax.firstName).text
        let type = syntax.type.trimmedDescription
        isCollection = ["NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet", "Set<", "[", "Array<", "NSIndexSet",
                        "IndexSet"].contains { type.hasPrefix($0) }
    }
}

/// One of the accessors Xcode generates for a to-many relationship, recognised by its name and parameters as
/// Objective-C recognises it by its selector.
private struct Accessor {
    /// The relationship's name as the function spells it (`Tags` in `addToTags`).
    var relationship: String
    /// The call that does the work, on the object's live view of the relationship.
    var call: (_ key: String) -> ExprSyntax

    init?(name: String, parameters: [Parameter]) {
        func named(_ prefix: String) -> String? {
            name.hasPrefix(prefix) && name.count > prefix.count ? String(name.dropFirst(prefix.count)) : nil
        }
        let labels = parameters.map(\.label)
        let set = { (key: String) -> ExprSyntax in "mutableSetValue(forKey: \(literal: key))" }
        let ordered = { (key: String) -> ExprSyntax in "mutableOrderedSetValue(forKey: \(literal: key))" }
        if let relationship = named("addTo"), labels == ["_"] {
            let value = parameters[0]
            self.init(relationship: relationship) { key in
                value.isCollection ? "\(set(key)).union(\(raw: value.name))" : "\(set(key)).add(\(raw: value.name))"
            }
        } else if let relationship = named("removeFrom"), labels == ["_"] {
            let value = parameters[0]
            self.init(relationship: relationship) { key in
                value.isCollection ? "\(set(key)).minus(\(raw: value.name))" : "\(set(key)).remove(\(raw: value.name))"
            }
        } else if let relationship = named("removeFrom"), labels == ["at"] {
            let index = parameters[0]
            self.init(relationship: relationship) { key in
                index.isCollection ? "\(ordered(key)).removeObjects(at: \(raw: index.name))"
                    : "\(ordered(key)).removeObject(at: \(raw: index.name))"
            }
        } else if let relationship = named("insertInto"), labels == ["_", "at"] {
            let (value, index) = (parameters[0], parameters[1])
            self.init(relationship: relationship) { key in "\(ordered(key)).insert(\(raw: value.name), at: \(raw: index.name))" }
        } else if let relationship = named("replace"), labels == ["at", "with"] {
            let (index, value) = (parameters[0], parameters[1])
            self.init(relationship: relationship) { key in
                index.isCollection ? "\(ordered(key)).replaceObjects(at: \(raw: index.name), with: \(raw: value.name))"
                    : "\(ordered(key)).replaceObject(at: \(raw: index.name), with: \(raw: value.name))"
            }
        } else {
            return nil
        }
    }

    private init(relationship: String, call: @escaping (String) -> ExprSyntax) {
        self.relationship = relationship
        self.call = call
    }
}

/// A macro's error, shown at the attribute.
struct MacroError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
