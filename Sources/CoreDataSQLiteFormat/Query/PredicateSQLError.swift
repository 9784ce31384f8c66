import Foundation
import TerminalText

/// A predicate, expression or sort that cannot be compiled to SQL for a store, and why.
///
/// The compiler refuses rather than approximates: a fetch either runs with the evaluator's exact semantics or
/// fails with this error, naming the construct and where it sits in the predicate's canonical format.
public struct PredicateSQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of construct refused, such as `"FUNCTION expression"` or `"key path through a transient attribute"`.
    public var construct: String
    /// The canonical format of the refused part (`FUNCTION(name, "reverse")`, `ALL tags.name`, …).
    public var constructFormat: String
    /// The canonical format of the whole predicate (or of the sort descriptor).
    public var predicateFormat: String
    /// The UTF-8 offset of ``constructFormat`` in ``predicateFormat``; nil when the construct is not a substring
    /// of it (for example an entity name).
    public var offset: Int?
    /// Why it cannot be compiled, and what to do instead where there is an alternative.
    public var reason: String

    /// Makes an error, locating `constructFormat` in `predicateFormat`.
    public init(construct: String, constructFormat: String, predicateFormat: String, reason: String) {
        self.construct = construct
        self.constructFormat = constructFormat
        self.predicateFormat = predicateFormat
        self.reason = reason
        if !constructFormat.isEmpty, let range = predicateFormat.range(of: constructFormat) {
            offset = predicateFormat.utf8.distance(from: predicateFormat.startIndex, to: range.lowerBound)
        } else {
            offset = nil
        }
    }

    public var description: String {
        let location = offset.map { " at offset \($0)" } ?? ""
        return "cannot compile \(construct) '\(constructFormat)'\(location) of '\(predicateFormat)' to SQL: \(reason)"
    }

    /// The predicate's format with a caret under the refused construct, then the reason, for a terminal. The format
    /// is shown and measured as the one terminal sanitiser (`TerminalText`) shows it, so invisible and wide
    /// characters before the construct do not move the caret off it.
    public var caretDiagnostic: String {
        let shown = TerminalSanitizer.sanitize(predicateFormat)
        guard let offset else { return shown + "\n" + description }
        let before = String(decoding: Array(predicateFormat.utf8)[..<offset], as: UTF8.self)
        return shown + "\n" + String(repeating: " ", count: DisplayWidth.of(TerminalSanitizer.sanitize(before)))
            + "^ cannot compile \(construct) to SQL: \(reason)"
    }
}
