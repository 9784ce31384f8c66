import CoreDataModel
import Foundation

// `ocd-momc SOURCE DEST`: the model compiler the OpenCoreDataModelCompiler build plugin runs (`coredata
// compile-model` does the same with the rest of the tool around it). It depends on the model modules only, so a
// package that compiles its models does not build the terminal browser.

let usage = """
    usage: ocd-momc SOURCE DEST
      SOURCE  a .xcdatamodeld (compiled to NAME.momd) or a .xcdatamodel (compiled to NAME.mom)
      DEST    the .momd or .mom to write, or a directory to write it into
    """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--help"] || arguments == ["-h"] {
    print(usage)
    exit(0)
}
guard arguments.count == 2, !arguments.contains(where: { $0.hasPrefix("-") }) else {
    FileHandle.standardError.write(Data("ocd-momc: error: expected SOURCE and DEST\n\(usage)\n".utf8))
    exit(2)
}
do {
    try ModelCompiler.compile(URL(fileURLWithPath: arguments[0]), into: URL(fileURLWithPath: arguments[1]))
} catch {
    FileHandle.standardError.write(Data("ocd-momc: error: \(error)\n".utf8))
    exit(1)
}
