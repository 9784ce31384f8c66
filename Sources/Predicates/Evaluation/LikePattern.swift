/// A LIKE pattern compiled to a list of elements and matched without backtracking blow-up.
///
/// Generic over its unit so that the evaluator matches `Character`s (grapheme clusters) and the ASCII fast path
/// of ``PreparedStringComparison`` matches bytes with the same algorithm.
struct LikePattern<Unit: Equatable> {
    enum Element: Equatable {
        case literal(Unit)
        case anyCharacter
        case anyRun
    }

    let elements: [Element]

    /// Parses `pattern`: `star` matches any run, `question` one unit, `escape` makes the next unit literal.
    init(_ pattern: some Sequence<Unit>, star: Unit, question: Unit, escape: Unit) {
        var elements: [Element] = []
        var escaping = false
        for unit in pattern {
            if escaping {
                elements.append(.literal(unit))
                escaping = false
            } else if unit == escape {
                escaping = true
            } else if unit == star {
                if elements.last != .anyRun { elements.append(.anyRun) }
            } else if unit == question {
                elements.append(.anyCharacter)
            } else {
                elements.append(.literal(unit))
            }
        }
        if escaping { elements.append(.literal(escape)) }
        self.elements = elements
    }

    /// Greedy matching that remembers only the last `*`: O(text × pattern) in the worst case.
    func matches<Text: RandomAccessCollection>(_ text: Text) -> Bool where Text.Element == Unit, Text.Index == Int {
        var textIndex = text.startIndex, patternIndex = 0
        var starPattern: Int?, starText = textIndex
        while textIndex < text.endIndex {
            if patternIndex < elements.count {
                switch elements[patternIndex] {
                case .anyRun:
                    starPattern = patternIndex
                    starText = textIndex
                    patternIndex += 1
                    continue
                case .anyCharacter:
                    textIndex += 1; patternIndex += 1
                    continue
                case .literal(let unit) where unit == text[textIndex]:
                    textIndex += 1; patternIndex += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let star = starPattern else { return false }
            patternIndex = star + 1
            starText += 1
            textIndex = starText
        }
        while patternIndex < elements.count, elements[patternIndex] == .anyRun { patternIndex += 1 }
        return patternIndex == elements.count
    }
}

extension LikePattern where Unit == Character {
    /// A pattern of a predicate format: `*`, `?` and `\`.
    init(_ pattern: String) {
        self.init(pattern, star: "*", question: "?", escape: "\\")
    }
}
