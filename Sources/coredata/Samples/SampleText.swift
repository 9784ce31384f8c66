import Foundation

/// Text helpers and word lists shared by the samples. Some entries carry diacritics on purpose (Zoë, jalapeño,
/// crème), so the canonical search strings differ from the display strings.
enum SampleText {
    /// The canonical search string the seeds recommend keeping beside a displayed string: case and diacritics
    /// folded away, so a `[n]` or plain `BEGINSWITH` query can replace a costly `[cd]` one.
    static func canonical(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// `text` lowercased, folded, with runs of anything but letters and digits turned into `separator`.
    static func slug(_ text: String, separator: Character = "-") -> String {
        var result = ""
        for character in canonical(text) {
            if character.isLetter || character.isNumber, character.isASCII {
                result.append(character)
            } else if let last = result.last, last != separator {
                result.append(separator)
            }
        }
        while result.last == separator { result.removeLast() }
        return result
    }

    static let firstNames = [
        "Ada", "Amélie", "Ana", "Björn", "Chen", "Chloé", "Dario", "Elif", "Emeka", "Farah", "François", "Giulia",
        "Hana", "Ingrid", "Jamal", "José", "Kai", "Léa", "Malik", "Mei", "Noémie", "Ólafur", "Priya", "Ravi",
        "Søren", "Tomás", "Yuki", "Zoë",
    ]

    static let lastNames = [
        "Abbott", "Álvarez", "Bergström", "Castillo", "Dubois", "Eriksen", "Fernández", "García", "Haddad", "Ito",
        "Jovanović", "Kowalski", "Laurent", "Müller", "Nakamura", "Novák", "O'Brien", "Okafor", "Pereira", "Rossi",
        "Schäfer", "Singh", "Tanaka", "Ünal", "Varga", "Wong",
    ]

    static func personName(_ random: inout SampleRandom) -> String {
        "\(random.pick(firstNames)) \(random.pick(lastNames))"
    }

    /// Years from 2015-01-01T00:00:00Z, the start of every sample's dates.
    static let epoch = Date(timeIntervalSince1970: 1_420_070_400)
}
