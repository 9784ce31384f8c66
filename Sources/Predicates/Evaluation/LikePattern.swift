/// A LIKE pattern compiled to a list of elements and matched without backtracking blow-up.
struct LikePattern {
    enum Element: Equatable {
        case literal(Character)
        case anyCharacter
        case anyRun
    }

    let elements: [Element]

    init(_ pattern: String) {
        var elements: [Element] = []
        var escaping = false
        for character in pattern {
            if escaping {
                elements.append(.literal(character))
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "*" {
                if elements.last != .anyRun { elements.append(.anyRun) }
            } else if character == "?" {
                elements.append(.anyCharacter)
            } else {
                elements.append(.literal(character))
            }
        }
        if escaping { elements.append(.literal("\\")) }
        self.elements = elements
    }

    /// Greedy matching that remembers only the last `*`: O(text × pattern) in the worst case.
    func matches(_ text: [Character]) -> Bool {
        var textIndex = 0, patternIndex = 0
        var starPattern: Int?, starText = 0
        while textIndex < text.count {
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
                case .literal(let character) where character == text[textIndex]:
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
