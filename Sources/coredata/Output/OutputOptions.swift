import ArgumentParser
import Foundation

/// The output formats of `query`, `aggregate` and `diff`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, tsv, json, jsonl, markdown
}

extension DateStyle: ExpressibleByArgument {}

/// How results are printed: the options `query` and `aggregate` share.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: table, csv, tsv, json, jsonl or markdown.") var format: OutputFormat = .table
    @Flag(inversion: .prefixedNo, help: "Print a header line of column names (csv, tsv, table; markdown always has one).")
    var header = true
    @Option(name: .customLong("null"), help: ArgumentHelp("The text of a missing value in csv, tsv, table and markdown (JSON writes null).", valueName: "text"))
    var nullText: String = ""
    @Option(help: "Dates as iso (ISO 8601, UTC, milliseconds), unix (seconds since 1970) or apple (seconds since 2001).")
    var dates: DateStyle = .iso

    /// The settings for writing to standard output.
    var settings: OutputSettings {
        OutputSettings(format: format, header: header, nullText: nullText, dates: dates,
                       isTerminal: isatty(STDOUT_FILENO) != 0)
    }
}

/// Everything a ``ResultWriter`` needs to know about where and how it writes.
struct OutputSettings {
    var format: OutputFormat
    var header = true
    var nullText = ""
    var dates: DateStyle = .iso
    /// Standard output is a terminal: every string passes the sanitiser (JSON: escapes for what it would change).
    var isTerminal: Bool
}
