import Foundation

/// Splits a format string into tokens, working on its UTF-8 bytes so that every position is a UTF-8 offset.
///
/// Every step consumes at least one byte, so lexing ends on any input, including random bytes.
struct Lexer {
    let format: String
    let bytes: [UInt8]
    var position = 0
    private var tokens: [Token] = []

    init(format: String) {
        self.format = format
        self.bytes = Array(format.utf8)
    }

    /// All tokens, ending with `.end`.
    static func tokenize(_ format: String) throws(PredicateSyntaxError) -> [Token] {
        var lexer = Lexer(format: format)
        while let token = try lexer.nextToken() { lexer.tokens.append(token) }
        lexer.tokens.append(Token(kind: .end, offset: lexer.bytes.count, length: 0))
        return lexer.tokens
    }

    private func error(at offset: Int, expected: String, found: String) -> PredicateSyntaxError {
        PredicateSyntaxError(format: format, offset: offset, expected: expected, found: found)
    }

    private func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func nextToken() throws(PredicateSyntaxError) -> Token? {
        while let byte = byte(at: position), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            position += 1
        }
        guard let first = byte(at: position) else { return nil }
        let start = position
        let kind: Token.Kind
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): kind = .string(try lexString(quote: first))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): kind = try lexNumber()
        case UInt8(ascii: ".") where isDigitByte(byte(at: position + 1)) && !(tokens.last?.kind.endsOperand ?? false):
            kind = try lexNumber()
        case UInt8(ascii: "$"):
            position += 1
            guard let name = lexIdentifierBody() else {
                throw error(at: position, expected: "a variable name after '$'", found: describeCharacter(at: position))
            }
            kind = .variable(name)
        case UInt8(ascii: "@"):
            position += 1
            guard let name = lexIdentifierBody() else {
                throw error(at: position, expected: "a collection operator name after '@'", found: describeCharacter(at: position))
            }
            kind = .atIdentifier(name)
        case UInt8(ascii: "#"):
            position += 1
            guard let name = lexIdentifierBody() else {
                throw error(at: position, expected: "a name after '#'", found: describeCharacter(at: position))
            }
            kind = .identifier(name)
        case UInt8(ascii: "%"): kind = .formatArgument(try lexFormatArgument())
        default:
            if let name = lexIdentifierBody() {
                kind = classifyWord(name)
            } else if let symbol = lexPunctuation() {
                kind = .punctuation(symbol)
            } else {
                throw error(at: start, expected: "an operator, a name, a number or a string", found: describeCharacter(at: start))
            }
        }
        return Token(kind: kind, offset: start, length: position - start)
    }

    /// A keyword, a selector part (`name:` not followed by `=`), or a plain identifier.
    private mutating func classifyWord(_ name: String) -> Token.Kind {
        if byte(at: position) == UInt8(ascii: ":"), byte(at: position + 1) != UInt8(ascii: "=") {
            position += 1
            return .selectorPart(name)
        }
        if let keyword = Keyword.byUppercasedSpelling[name.uppercased()] { return .keyword(keyword) }
        return .identifier(name)
    }

    // MARK: Identifiers

    /// The scalar starting at `index` and its UTF-8 length.
    private func scalar(at index: Int) -> (Unicode.Scalar, Int)? {
        guard index < bytes.count else { return nil }
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return (scalar, UTF8.width(scalar))
    }

    /// Letters (any alphabetic scalar, so `prénom` is one key), `_`, then also ASCII digits and combining marks.
    private mutating func lexIdentifierBody() -> String? {
        let start = position
        while let (scalar, width) = scalar(at: position) {
            let isLetter = scalar == "_" || scalar.properties.isAlphabetic
            let isContinuation = position > start
                && (("0"..."9").contains(scalar) || scalar.properties.generalCategory == .nonspacingMark)
            guard isLetter || isContinuation else { break }
            position += width
        }
        return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    private func describeCharacter(at index: Int) -> String {
        guard let (scalar, _) = scalar(at: index) else { return index >= bytes.count ? "end of input" : "an invalid byte" }
        if scalar.value < 0x20 || scalar.value == 0x7F { return "control character U+\(String(format: "%04X", scalar.value))" }
        return "'\(scalar)'"
    }

    // MARK: Punctuation

    /// Every spelling of every symbol as UTF-8, longest first so that `<=` wins over `<`.
    private static let punctuationBySpelling: [([UInt8], Punctuation)] = {
        var table = Punctuation.allCases.map { ($0.rawValue, $0) }
        table += [("=", .equal), ("<>", .notEqual), ("=<", .lessOrEqual), ("=>", .greaterOrEqual)]
        return table.map { (Array($0.0.utf8), $0.1) }.sorted { $0.0.count > $1.0.count }
    }()

    private mutating func lexPunctuation() -> Punctuation? {
        for (spelling, symbol) in Self.punctuationBySpelling
        where position + spelling.count <= bytes.count && bytes[position..<position + spelling.count].elementsEqual(spelling) {
            position += spelling.count
            return symbol
        }
        return nil
    }
}
