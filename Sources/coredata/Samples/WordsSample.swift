import CoreDataObjectGraph
import Foundation

/// Words: the seeds' word-list benchmark (fetching 500,000 simple objects), generated on demand at the large size
/// only. Each word keeps its canonical form for `[n]`-style prefix searches, its length and its first letter for
/// sections.
struct WordsSample: SampleGenerator {
    static let name = "Words"
    static let modelContents = SampleModels.words

    static func scale(for size: SampleSize) -> Int? {
        size == .large ? 500_000 : nil
    }

    let wordCount: Int

    init(scale: Int) { wordCount = scale }

    func generate(into writer: SampleStoreWriter, random: inout SampleRandom) throws {
        for _ in 0..<wordCount {
            let text = Self.word(&random)
            let normalized = SampleText.canonical(text)
            let word = writer.insert("Word")
            word.setValue(text, forKey: "text")
            word.setValue(normalized, forKey: "normalizedText")
            word.setValue(Int16(text.count), forKey: "length")
            word.setValue(normalized.first.map { String($0).uppercased() } ?? "", forKey: "firstLetter")
            try writer.endUnit()
        }
        try writer.saveAndReset()
    }

    /// A pronounceable word of one to four syllables; some are capitalised and some carry diacritics, as a real
    /// multilingual word list does.
    static func word(_ random: inout SampleRandom) -> String {
        var text = ""
        for _ in 0..<random.int(in: 1...4) {
            text += random.pick(onsets) + (random.chance(0.08) ? random.pick(accentedVowels) : random.pick(vowels))
            if random.chance(0.3) { text += random.pick(codas) }
        }
        return random.chance(0.1) ? text.prefix(1).uppercased() + text.dropFirst() : text
    }

    static let onsets = ["", "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
                         "br", "ch", "cl", "dr", "fl", "gr", "pl", "pr", "sh", "st", "th", "tr"]
    static let vowels = ["a", "e", "i", "o", "u", "ai", "ea", "ou", "y"]
    static let accentedVowels = ["á", "é", "è", "ê", "í", "ï", "ó", "ö", "ú", "ü", "å", "ø"]
    static let codas = ["n", "r", "s", "t", "l", "m", "ck", "ng", "st", "x"]
}
