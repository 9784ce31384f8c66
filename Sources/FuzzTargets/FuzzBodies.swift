import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Predicates
import PropertyListCoding
import TerminalText

/// The body of each ``FuzzTarget``.
enum FuzzBodies {
    /// Parses the input as a predicate format; an accepted predicate is printed, and its canonical form must
    /// parse again (the printer never writes what the parser refuses).
    static func predicate(_ input: [UInt8]) -> FuzzOutcome {
        let format = String(decoding: input, as: UTF8.self)
        let node: PredicateNode
        do {
            node = try PredicateParser.parsePredicate(format)
        } catch {
            return .rejected  // typed: PredicateSyntaxError
        }
        let printed = node.predicateFormat
        do {
            _ = try PredicateParser.parsePredicate(printed)
        } catch {
            return .violation("the canonical form \(printed.debugDescription) of \(format.debugDescription) does not parse: \(error)")
        }
        return .accepted
    }

    static func binaryPropertyList(_ input: [UInt8]) -> FuzzOutcome {
        expecting(PropertyListError.self) {
            let value = try BinaryPropertyListReader().read(input)
            // What was read writes back and reads back equal.
            let written = try PropertyList.write(value, format: .binary)
            let again = try BinaryPropertyListReader().read(written)
            guard again == value || value.containsNaN else {
                throw FuzzViolation("a binary plist read back different after writing it")
            }
        }
    }

    static func xmlPropertyList(_ input: [UInt8]) -> FuzzOutcome {
        expecting(PropertyListError.self) {
            let value = try XMLPropertyListReader().read(input)
            _ = try PropertyList.write(value, format: .xml)
        }
    }

    /// A keyed archive, resolved object by object, then read as a compiled model.
    static func keyedArchive(_ input: [UInt8]) -> FuzzOutcome {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(bytes: input)
        } catch is PropertyListError {
            return .rejected
        } catch {
            return .violation("KeyedArchive threw \(type(of: error)): \(error)")
        }
        var outcome = FuzzOutcome.accepted
        do {
            var budget = 2_000
            try walk(try archive.topValue(), in: archive, budget: &budget)
        } catch is PropertyListError {
            outcome = .rejected
        } catch {
            return .violation("resolving the archive threw \(type(of: error)): \(error)")
        }
        do {
            _ = try CompiledModelReader(file: "fuzz.mom").read(Data(input))
        } catch {
            outcome = .rejected  // typed: ModelError
        }
        return outcome
    }

    /// Visits what an archived value refers to, object by object and field by field, up to `budget` values
    /// (archives may hold cycles).
    static func walk(_ value: ArchivedValue, in archive: KeyedArchive, budget: inout Int) throws {
        budget -= 1
        guard budget > 0 else { return }
        switch value {
        case .array(let values): for element in values { try walk(element, in: archive, budget: &budget) }
        case .dictionary(let entries): for element in entries.values { try walk(element, in: archive, budget: &budget) }
        case .object(let reference):
            let object = try archive.object(reference)
            for key in object.keys {
                if let field = try object.value(forKey: key) { try walk(field, in: archive, budget: &budget) }
            }
        default: break
        }
    }

    static func modelCache(_ input: [UInt8]) -> FuzzOutcome {
        do {
            _ = try ModelCache.model(fromCache: input, file: "fuzz.sqlite")
            return .accepted
        } catch {
            return .rejected  // typed: StoreFormatError
        }
    }

    static func xcdatamodelContents(_ input: [UInt8]) -> FuzzOutcome {
        expecting(ModelError.self) {
            let model = try XcdatamodelReader(file: "fuzz.xcdatamodel/contents").read(Data(input))
            exercise(model)
            try checkCompiles(model)
        }
    }

    static func legacyElements(_ input: [UInt8]) -> FuzzOutcome {
        expecting(ModelError.self) {
            let model = try LegacyElementsReader(file: "fuzz.xcdatamodel/elements").read(Data(input))
            exercise(model)
            try checkCompiles(model)
        }
    }

    /// What a loaded model goes through next in the tools: its store layout and DDL, and its version hashes.
    static func exercise(_ model: NSManagedObjectModel) {
        let layout = StoreLayout(model: model)
        _ = layout.tables.map(\.columns.count)
        _ = model.entityVersionHashesByName
    }

    static func terminalSanitizer(_ input: [UInt8]) -> FuzzOutcome {
        let text = String(decoding: input, as: UTF8.self)
        for (shown, layout) in [(TerminalSanitizer.sanitize(text), "single-line"),
                                (TerminalSanitizer.sanitize(utf8: input), "bytes"),
                                (TerminalSanitizer.sanitize(text, layout: .multiLine), "multi-line")] {
            if let scalar = shown.unicodeScalars.first(where: { isDangerous($0, multiLine: layout == "multi-line") }) {
                return .violation("the \(layout) sanitiser let U+\(String(scalar.value, radix: 16, uppercase: true)) through")
            }
            if TerminalSanitizer.sanitize(shown, layout: layout == "multi-line" ? .multiLine : .singleLine) != shown {
                return .violation("the \(layout) sanitiser is not idempotent on \(text.debugDescription)")
            }
            _ = DisplayWidth.of(shown)
        }
        // JSON escaped for a terminal holds nothing dangerous and decodes to the same text.
        guard let json = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]) else {
            return .violation("JSONSerialization refused \(text.debugDescription)")
        }
        let escaped = TerminalSanitizer.escapeForJSON(String(decoding: json, as: UTF8.self))
        if let scalar = escaped.unicodeScalars.first(where: { isDangerous($0, multiLine: false) }) {
            return .violation("escapeForJSON let U+\(String(scalar.value, radix: 16, uppercase: true)) through")
        }
        guard let decoded = try? JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String], decoded == [text] else {
            return .violation("escapeForJSON changed the data of \(text.debugDescription)")
        }
        return .accepted
    }

    /// Scalars that must never reach a terminal raw (zero-width joiners are judged by their neighbours, so they
    /// are left to the sanitiser's own tests).
    static func isDangerous(_ scalar: Unicode.Scalar, multiLine: Bool) -> Bool {
        let value = scalar.value
        if value < 0x20 { return !(multiLine && (value == 0x0A || value == 0x09)) }
        return value == 0x7F || (0x80...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || [0x061C, 0x200B, 0x200E, 0x200F, 0xFEFF, 0x2060].contains(value)
    }

    /// Runs `body`; an error of type `expected` is a rejection, a `FuzzViolation` or any other error a violation.
    static func expecting<E: Error>(_ expected: E.Type, _ body: () throws -> Void) -> FuzzOutcome {
        do {
            try body()
            return .accepted
        } catch let violation as FuzzViolation {
            return .violation(violation.message)
        } catch is E {
            return .rejected
        } catch {
            return .violation("threw \(type(of: error)) instead of \(E.self): \(error)")
        }
    }
}

/// An invariant a body found broken.
struct FuzzViolation: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

extension PropertyListValue {
    /// Whether a real anywhere inside is NaN (which never equals itself).
    var containsNaN: Bool {
        switch self {
        case .real(let value): value.isNaN
        case .array(let values): values.contains { $0.containsNaN }
        case .dictionary(let entries): entries.values.contains { $0.containsNaN }
        default: false
        }
    }
}
