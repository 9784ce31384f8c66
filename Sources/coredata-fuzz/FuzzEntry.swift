import Foundation
import FuzzTargets

// One executable, two builds. Built with `-sanitize=fuzzer -D LIBFUZZER` (`make fuzz`), libFuzzer drives it and
// the target comes from $FUZZ_TARGET. Built plainly, it runs the seeded generator for a long time:
//     coredata-fuzz TARGET|all ITERATIONS [SEED] [SEED-DIRECTORY...]
//     coredata-fuzz export-seeds OUTPUT-DIRECTORY [SEED-DIRECTORY...]   (libFuzzer corpora and dictionaries)
// with $FUZZ_LAST_INPUT naming a file that holds the input being run (to recover one that stops the process).

#if LIBFUZZER
private let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("coredata-fuzz: set FUZZ_TARGET to one of \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's driver, which `-sanitize=fuzzer` links in.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The program's entry point: SwiftPM links an executable's `main` to `<module>_main`, so this hands control to
/// libFuzzer's driver (whose own `main` is then not linked).
@_cdecl("coredata_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return withUnsafeMutablePointer(to: &count) { countPointer in
        withUnsafeMutablePointer(to: &arguments) { argumentsPointer in
            runFuzzerDriver(countPointer, argumentsPointer, { data, size in fuzzOneInput(data, size) })
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if case .violation(let message) = selectedTarget.run(input) {
        // A broken guarantee is a finding: stop so libFuzzer saves the input.
        fatalError("\(selectedTarget.rawValue): \(message)")
    }
    return 0
}
#else
@main
struct FuzzMain {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst().map { $0 }
        if arguments.first == "export-seeds", arguments.count >= 2 {
            exportSeeds(to: URL(fileURLWithPath: arguments[1]), from: arguments.dropFirst(2).map { URL(fileURLWithPath: $0) })
            return
        }
        guard arguments.count >= 2, let iterations = Int(arguments[1]),
              let targets = arguments[0] == "all" ? FuzzTarget.allCases : FuzzTarget(rawValue: arguments[0]).map({ [$0] })
        else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: coredata-fuzz \(names)|all ITERATIONS [SEED] [SEED-DIRECTORY...]\n".utf8))
            exit(2)
        }
        let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 1 : 1
        let directories = arguments.dropFirst(3).map { URL(fileURLWithPath: $0) }
        let seeds = FuzzSeeds.collect(from: directories)
        var failed = false
        for target in targets {
            let start = ContinuousClock.now
            let lastInput = ProcessInfo.processInfo.environment["FUZZ_LAST_INPUT"]
            let report = FuzzCampaign(target: target, seeds: seeds[target] ?? [])
                .run(iterations: iterations, seed: seed, lastInputPath: lastInput) { report in
                FileHandle.standardError.write(Data("  \(target.rawValue): \(report.executions) executions\n".utf8))
            }
            let seconds = (ContinuousClock.now - start).components.seconds
            print("\(target.rawValue): \(report.executions) executions in \(seconds) s, \(report.accepted) accepted, "
                  + "\(report.rejected) rejected, \(report.violationCount) violations, \(seeds[target]?.count ?? 0) seeds")
            for violation in report.violations {
                failed = true
                print("  violation: \(violation.message)\n  input (hex): \(violation.input.map { String(format: "%02x", $0) }.joined())")
            }
        }
        exit(failed ? 1 : 0)
    }

    /// Writes each target's seeds into OUTPUT/<target>/ and its tokens into OUTPUT/<target>.dict (libFuzzer's
    /// dictionary format).
    static func exportSeeds(to output: URL, from directories: [URL]) {
        let seeds = FuzzSeeds.collect(from: directories)
        for target in FuzzTarget.allCases {
            let folder = output.appendingPathComponent(target.rawValue)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, seed) in (seeds[target] ?? []).enumerated() {
                try? Data(seed).write(to: folder.appendingPathComponent("seed-\(index)"))
            }
            let dictionary = target.dictionary.map { token in
                "\"" + token.map { byte in
                    byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C
                        ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
                }.joined() + "\""
            }
            try? Data((dictionary.joined(separator: "\n") + "\n").utf8).write(to: output.appendingPathComponent("\(target.rawValue).dict"))
            print("\(target.rawValue): \(seeds[target]?.count ?? 0) seeds")
        }
    }
}
#endif
