import CoreDataObjectGraph
import Foundation

/// Photos: labels with their canonical search string, timestamps in shooting order, tags many-to-many, a small
/// thumbnail kept in the row (the seeds: cache the thumbnail with what a list shows) and a full image that may be
/// stored externally. A few full images cross the 128 KiB threshold so the support folder is exercised; most are
/// small and stay inline, and many photos have none.
struct PhotosSample: SampleGenerator {
    static let name = "Photos"
    static let modelContents = SampleModels.photos

    static func scale(for size: SampleSize) -> Int? {
        size == .small ? 300 : nil
    }

    /// Every this-many photos, starting with the first, the full image is stored externally (3 in 300).
    static let externalImageEvery = 100

    let photoCount: Int

    init(scale: Int) { photoCount = scale }

    func generate(into writer: SampleStoreWriter, random: inout SampleRandom) throws {
        let tags = Self.tagNames.map { name in
            let tag = writer.insert("Tag")
            tag.setValue(name, forKey: "name")
            return tag
        }
        try writer.save()
        let tagIDs = tags.map(\.objectID)
        try writer.saveAndReset()

        var timestamp = SampleText.epoch
        for index in 0..<photoCount {
            let photo = writer.insert("Photo")
            let label = "\(random.pick(Self.moods)) \(random.pick(Self.subjects)) at \(random.pick(Self.places))"
            photo.setValue(label, forKey: "label")
            photo.setValue(SampleText.canonical(label), forKey: "normalizedLabel")
            // Shooting sessions: bursts seconds apart, then gaps of hours or days.
            timestamp = timestamp.addingTimeInterval(random.chance(0.6) ? Double(random.int(in: 1...90)) : Double(random.int(in: 3_600...(9 * 86_400))))
            photo.setValue(timestamp, forKey: "timestamp")
            photo.setValue(random.chance(0.08), forKey: "isFavorite")
            let landscape = random.chance(0.7)
            photo.setValue(Int32(landscape ? 4_032 : 3_024), forKey: "pixelWidth")
            photo.setValue(Int32(landscape ? 3_024 : 4_032), forKey: "pixelHeight")
            photo.setValue(SampleImage.ppm(width: landscape ? 16 : 12, height: landscape ? 12 : 16, random: &random), forKey: "thumbnail")
            if index % Self.externalImageEvery == 0 {
                photo.setValue(SampleImage.external(random: &random), forKey: "fullImage")
            } else if random.chance(0.1) {
                photo.setValue(SampleImage.ppm(width: landscape ? 32 : 24, height: landscape ? 24 : 32, random: &random), forKey: "fullImage")
            }
            let tagged = random.pick(random.int(in: 0...4), of: tagIDs).map(writer.object)
            photo.setValue(tagged, forKey: "tags")
            try writer.endUnit()
        }
        try writer.saveAndReset()
    }

    // MARK: Word lists

    static let tagNames = [
        "family", "travel", "holiday", "food", "nature", "city", "night", "beach", "mountains", "snow", "friends",
        "pets", "architecture", "sunset", "portrait", "street", "concert", "garden", "birthday", "café", "museum",
        "rain", "autumn", "black & white",
    ]

    static let moods = [
        "Misty", "Golden", "Quiet", "Busy", "Early", "Late", "Rainy", "Sunny", "Snowy", "Windy", "Blue", "Crowded",
        "Empty", "Autumnal", "Bright",
    ]

    static let subjects = [
        "harbour", "market", "bridge", "garden", "café terrace", "railway station", "lighthouse", "old town", "beach",
        "forest path", "rooftops", "cathedral", "river bank", "mountain hut", "street corner", "lake",
    ]

    static let places = [
        "Ålesund", "Kraków", "Porto", "Reykjavík", "Köln", "Montréal", "Kyoto", "Valparaíso", "Zürich", "Oaxaca",
        "Nice", "Tromsø", "Sevilla", "Hanoi", "Brașov", "São Paulo", "Edinburgh", "Istanbul",
    ]
}
