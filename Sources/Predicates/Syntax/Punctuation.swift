/// Operators and delimiters.
enum Punctuation: String, Sendable, CaseIterable {
    case leftParenthesis = "(", rightParenthesis = ")", leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]", comma = ",", dot = ".", assign = ":="
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case doubleAmpersand = "&&", doublePipe = "||", exclamation = "!"
    case plus = "+", minus = "-", star = "*", slash = "/", doubleStar = "**"
    case ampersand = "&", pipe = "|", caret = "^"
}
