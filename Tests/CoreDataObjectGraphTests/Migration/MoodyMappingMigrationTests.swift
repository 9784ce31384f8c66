import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import XCTest

/// objc.io's Moody app migrates its store through six model versions with four mapping models Xcode wrote
/// (../shared/fixtures/models/objcio-moody-migrations). Data written at version 1 crosses every step, the mapped
/// ones with Apple's own mapping files and the app's `Country5ToCountry6Policy`, and is checked at version 6.
final class MoodyMappingMigrationTests: XCTestCase {
    private typealias Support = MigrationTestSupport
    private let folder = "models/objcio-moody-migrations"

    override func setUpWithError() throws {
        try XCTSkipUnless(Fixtures.isAvailable, Fixtures.absenceMessage)
    }

    func testTheFourXcodeMappingModelsReadAsTheirDocumentsSay() throws {
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy("\(folder)/Moody.xcdatamodeld"))
        let models = versions.versions.map(\.model)
        let steps = try (2...5).map { step in
            try NSMappingModel(contentsOf: try Fixtures.copy("\(folder)/Moody \(step)-Moody \(step + 1).xcmappingmodel"),
                               sourceModel: models[step - 1], destinationModel: models[step])
        }
        XCTAssertEqual(steps.map { $0.entityMappings.count }, [3, 3, 2, 3], "reference §4.1's counts")
        let fourToFive = steps[2]
        XCTAssertEqual(Set(fourToFive.entityMappings.map(\.name)), ["MoodToMood", "CountryToCountry"])
        let country = try XCTUnwrap(fourToFive.entityMappingsByName["CountryToCountry"])
        XCTAssertEqual(country.propertyMappingsByName["isoContinent"]?.valueExpression?.predicateFormat, "$source.continent.numericISO3166Code",
                       "the one archived expression, decoded (reference §4.6)")
        XCTAssertEqual(country.propertyMappingsByName["numberOfMoods"]?.valueExpression?.predicateFormat, "$source.numberOfMoods")
        XCTAssertEqual(country.propertyMappingsByName["moods"]?.valueExpression?.predicateFormat,
                       "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"MoodToMood\", $source.moods)")
        let twoToThree = steps[0]
        XCTAssertEqual(twoToThree.entityMappingsByName["ContinentToContinent"]?.propertyMappingsByName["moods"]?.valueExpression?.predicateFormat,
                       "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"MoodToMood\", "
                           + "$source.countries.@distinctUnionOfSets.moods)")
        let fiveToSix = steps[3]
        XCTAssertEqual(fiveToSix.entityMappingsByName["CountryToCountry"]?.entityMigrationPolicyClassName, "Migrations.Country5ToCountry6Policy")
        XCTAssertEqual(fiveToSix.entityMappings.first { $0.sourceEntityName == nil }?.mappingType, .addEntityMappingType,
                       "Continent is new at 6: a destination-only mapping")
    }

    func testMoodyDataCrossesEveryStepWithApplesMappingModelsAndTheAppsPolicy() throws {
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy("\(folder)/Moody.xcdatamodeld"))
        let models = versions.versions.map(\.model)
        NSEntityMigrationPolicy.register(Country5ToCountry6Policy.self, forClassName: "Migrations.Country5ToCountry6Policy")
        var url = try Support.storeURL("Moody-1.sqlite")
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        try Support.makeStore(at: url, model: models[0]) { context in
            var countries: [NSManagedObject] = []
            let europe = Support.insert("Continent", ["numericISO3166Code": Int16(150), "updatedAt": start], into: context)
            let asia = Support.insert("Continent", ["numericISO3166Code": Int16(142), "updatedAt": start], into: context)
            for (code, continent) in [(250, europe), (276, europe), (392, asia)] {
                countries.append(Support.insert("Country", ["numericISO3166Code": Int16(code), "updatedAt": start, "continent": continent], into: context))
            }
            for index in 0..<9 {
                Support.insert("Mood", ["date": start.addingTimeInterval(Double(index)), "remoteIdentifier": "m\(index)",
                                        "creatorID": "c\(index % 2)", "latitude": Double(index) / 2, "colors": Data([UInt8(index)]),
                                        "country": countries[index % 3]], into: context)
            }
        }
        for step in 1..<models.count {
            let mapping = step == 1 ? nil : try NSMappingModel(
                contentsOf: try Fixtures.copy("\(folder)/Moody \(step)-Moody \(step + 1).xcmappingmodel"),
                sourceModel: models[step - 1], destinationModel: models[step])
            let next = url.deletingLastPathComponent().appendingPathComponent("Moody-\(step + 1).sqlite")
            try NSMigrationManager(sourceModel: models[step - 1], destinationModel: models[step]).migrateStore(
                from: url, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: next, destinationType: NSSQLiteStoreType)
            url = next
            if step == 2 {
                // The 2→3 mapping fills the new relationship both ways (inference would leave it empty).
                let context = try Support.open(url, model: models[2], options: [:])
                try context.performAndWait {
                    let moods = try Support.fetch("Mood", in: context, sortedBy: "date")
                    XCTAssertEqual(moods.map { ($0.value(forKey: "continent") as? NSManagedObject).flatMap { Support.int($0.value(forKey: "numericISO3166Code")) } },
                                   (0..<9).map { [150, 150, 142][$0 % 3] }, "Mood.continent = $source.country.continent")
                    let continents = try Support.fetch("Continent", in: context, sortedBy: "numericISO3166Code")
                    XCTAssertEqual(continents.map { ($0.value(forKey: "moods") as? Set<NSManagedObject>)?.count }, [3, 6],
                                   "Continent.moods = $source.countries.@distinctUnionOfSets.moods")
                }
            }
        }
        let context = try Support.open(url, model: versions.currentModel, options: [:])
        try context.performAndWait {
            let moods = try Support.fetch("Mood", in: context, sortedBy: "date")
            XCTAssertEqual(moods.map { $0.value(forKey: "remoteID") as? String }, (0..<9).map { "m\($0)" }, "renamed at 1→2")
            XCTAssertEqual(moods.map { $0.value(forKey: "latitude") as? Double }, (0..<9).map { Double($0) / 2 })
            XCTAssertEqual(moods.map { $0.value(forKey: "colors") as? Data }, (0..<9).map { Data([UInt8($0)]) })
            XCTAssertEqual(moods.map { ($0.value(forKey: "country") as? NSManagedObject).flatMap { Support.int($0.value(forKey: "numericISO3166Code")) } },
                           (0..<9).map { [250, 276, 392][$0 % 3] })
            let countries = try Support.fetch("Country", in: context, sortedBy: "numericISO3166Code")
            XCTAssertEqual(countries.map { ($0.value(forKey: "continent") as? NSManagedObject).flatMap { Support.int($0.value(forKey: "numericISO3166Code")) } },
                           [150, 150, 142], "4→5 kept each continent's code in isoContinent; the 5→6 policy made continents from it")
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Continent")), 2, "found or created once each")
        }
    }

    func testAMappingFileNamingAnEntityTheModelLacksIsAClearError() throws {
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy("\(folder)/Moody.xcdatamodeld"))
        let models = versions.versions.map(\.model)
        // The 2→3 file read against versions 5 and 6: version 5 has no Continent entity for its ContinentToContinent.
        XCTAssertThrowsError(try NSMappingModel(contentsOf: try Fixtures.copy("\(folder)/Moody 2-Moody 3.xcmappingmodel"),
                                                sourceModel: models[4], destinationModel: models[5])) { error in
            XCTAssertTrue("\(error)".contains("xcmapping.xml"), "\(error)")
            XCTAssertTrue("\(error)".contains("Continent"), "\(error)")
        }
    }
}

/// objc.io's policy for Moody 5 → 6: after the default copy of a country, find or create the continent its
/// `isoContinent` code names in the destination, and link them.
final class Country5ToCountry6Policy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        guard let country = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance]).first,
              let code = MigrationTestSupport.int(sInstance.value(forKey: "isoContinent")), let context = manager.destinationContext else { return }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Continent")
        request.predicate = Predicates.NSPredicate(format: "numericISO3166Code == %d", code)
        let continent = try context.fetch(request).first
            ?? NSEntityDescription.insertNewObject(forEntityName: "Continent", into: context)
        continent.setValue(Int16(code), forKey: "numericISO3166Code")
        country.setValue(continent, forKey: "continent")
    }
}
