import CoreDataObjectGraph
import Foundation

/// Earthquakes: magnitude, place, time and depth for grouping and aggregates (`coredata aggregate … --group-by
/// region.name --avg magnitude`). Magnitudes follow the Gutenberg–Richter law (each unit of magnitude ten times
/// rarer than the one below), depths are mostly shallow, and times run forward over ten years.
struct EarthquakesSample: SampleGenerator {
    static let name = "Earthquakes"
    static let modelContents = SampleModels.earthquakes

    static func scale(for size: SampleSize) -> Int? {
        switch size {
        case .small: return 2_000
        case .large: return 1_000_000
        }
    }

    let quakeCount: Int

    init(scale: Int) { quakeCount = scale }

    func generate(into writer: SampleStoreWriter, random: inout SampleRandom) throws {
        let regions = Self.regions.map { region in
            let object = writer.insert("Region")
            object.setValue(region.name, forKey: "name")
            object.setValue(region.plate, forKey: "plate")
            return object
        }
        try writer.save()
        let regionIDs = regions.map(\.objectID)
        try writer.saveAndReset()

        let span = 10 * 365.25 * 86_400
        let meanGap = span / Double(quakeCount)
        var time = SampleText.epoch
        for index in 0..<quakeCount {
            let regionIndex = random.int(in: 0...(Self.regions.count - 1))
            let region = Self.regions[regionIndex]
            let quake = writer.insert("Quake")
            quake.setValue("oc" + String(index + 1, radix: 36).leftPadded(to: 8), forKey: "code")
            // Gutenberg–Richter with b = 1 above a catalogue completeness of 2.5.
            let magnitude = min(9.1, 2.5 - log10(1 - random.unit()))
            quake.setValue((magnitude * 10).rounded() / 10, forKey: "magnitude")
            quake.setValue((Self.depth(&random) * 100).rounded() / 100, forKey: "depth")
            let latitude = max(-90, min(90, region.latitude + random.double(in: -3...3)))
            let longitude = max(-180, min(180, region.longitude + random.double(in: -3...3)))
            quake.setValue((latitude * 10_000).rounded() / 10_000, forKey: "latitude")
            quake.setValue((longitude * 10_000).rounded() / 10_000, forKey: "longitude")
            let direction = random.pick(["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"])
            quake.setValue("\(random.int(in: 1...120)) km \(direction) of \(random.pick(region.towns)), \(region.name)", forKey: "place")
            // Exponential gaps: a Poisson process of quakes.
            time = time.addingTimeInterval((-log(1 - random.unit()) * meanGap * 1_000).rounded() / 1_000)
            quake.setValue(time, forKey: "time")
            quake.setValue(writer.object(regionIDs[regionIndex]), forKey: "region")
            try writer.endUnit()
        }
        try writer.saveAndReset()
    }

    /// Kilometres: most quakes are crustal, some intermediate, a few deep (subducting slabs reach 700 km).
    private static func depth(_ random: inout SampleRandom) -> Double {
        let kind = random.unit()
        if kind < 0.75 { return random.double(in: 0...35) }
        if kind < 0.95 { return random.double(in: 35...300) }
        return random.double(in: 300...700)
    }

    struct Region {
        var name: String
        var plate: String
        var latitude: Double
        var longitude: Double
        var towns: [String]
    }

    static let regions = [
        Region(name: "Alaska", plate: "North American", latitude: 61, longitude: -150, towns: ["Anchorage", "Kodiak", "Valdez"]),
        Region(name: "California", plate: "Pacific", latitude: 36, longitude: -120, towns: ["Parkfield", "Ridgecrest", "Petrolia"]),
        Region(name: "Mexico", plate: "Cocos", latitude: 17, longitude: -99, towns: ["Acapulco", "Pinotepa Nacional", "Tecomán"]),
        Region(name: "Chile", plate: "Nazca", latitude: -33, longitude: -71, towns: ["Valparaíso", "Concepción", "Iquique"]),
        Region(name: "Peru", plate: "Nazca", latitude: -12, longitude: -77, towns: ["Lima", "Arequipa", "Ica"]),
        Region(name: "Japan", plate: "Pacific", latitude: 38, longitude: 142, towns: ["Sendai", "Miyako", "Kushiro"]),
        Region(name: "Indonesia", plate: "Sunda", latitude: -5, longitude: 120, towns: ["Padang", "Palu", "Ambon"]),
        Region(name: "Philippines", plate: "Philippine Sea", latitude: 12, longitude: 125, towns: ["Davao", "Tacloban", "Baguio"]),
        Region(name: "New Zealand", plate: "Australian", latitude: -41, longitude: 174, towns: ["Kaikōura", "Christchurch", "Gisborne"]),
        Region(name: "Tonga", plate: "Tonga", latitude: -20, longitude: -175, towns: ["Neiafu", "Nukuʻalofa", "Pangai"]),
        Region(name: "Iceland", plate: "Eurasian", latitude: 64, longitude: -21, towns: ["Grindavík", "Húsavík", "Selfoss"]),
        Region(name: "Italy", plate: "Eurasian", latitude: 42, longitude: 13, towns: ["L'Aquila", "Norcia", "Amatrice"]),
        Region(name: "Greece", plate: "Aegean Sea", latitude: 38, longitude: 22, towns: ["Kalamata", "Patras", "Heraklion"]),
        Region(name: "Türkiye", plate: "Anatolian", latitude: 38, longitude: 37, towns: ["Kahramanmaraş", "Malatya", "İzmir"]),
        Region(name: "Iran", plate: "Arabian", latitude: 32, longitude: 54, towns: ["Bam", "Kerman", "Tabriz"]),
        Region(name: "Nepal", plate: "Indian", latitude: 28, longitude: 85, towns: ["Gorkha", "Pokhara", "Jumla"]),
        Region(name: "Taiwan", plate: "Philippine Sea", latitude: 24, longitude: 121, towns: ["Hualien", "Taitung", "Nantou"]),
        Region(name: "Vanuatu", plate: "Australian", latitude: -16, longitude: 168, towns: ["Port Vila", "Luganville", "Isangel"]),
    ]
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
