import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind `CoreDataMacros`: the macros it declares, by implementation type.
@main
struct CoreDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [ManagedMacro.self, ManagedAccessorMacro.self]
}
