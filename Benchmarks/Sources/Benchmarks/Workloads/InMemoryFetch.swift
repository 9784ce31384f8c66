import Foundation
import OpenCoreData

/// The in-memory store (issue 18): a fetch with a predicate over 100,000 objects, against filtering a Swift array of
/// the same values with the same predicate evaluator (the floor: what evaluating the predicate costs with no store).
///
/// Both sides evaluate `score >= 0.25 AND score < 0.5 AND text BEGINSWITH 't'` with the predicate module's evaluator;
/// the array holds one `[String: Any]` per object, the store one cache node per object. Ours also sorts nothing,
/// makes a managed object per match and registers it in a new context, as a fetch does. The store is filled once,
/// outside the timing, and kept for every round.
enum InMemoryFetch {
    static let format = "score >= 0.25 AND score < 0.5 AND text BEGINSWITH 't'"

    static func workload(rows: Int) throws -> Workload {
        let model = Models.words(indexed: false)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, at: nil)
        var random = SplitMix(seed: 18)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var values: [[String: Any]] = []
        values.reserveCapacity(rows)
        for index in 0..<rows {
            let text = String((0..<(3 + index % 6)).map { _ in letters[Int(random.next() % 26)] })
            values.append(["text": text, "length": Int16(text.count), "created": Date(timeIntervalSinceReferenceDate: Double(index)),
                           "score": Double(random.next() % 1_000_000) / 1_000_000])
        }
        let filler = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        filler.persistentStoreCoordinator = coordinator
        try filler.performAndWait {
            for chunk in stride(from: 0, to: rows, by: 10_000) {
                for value in values[chunk..<min(rows, chunk + 10_000)] {
                    let word = NSEntityDescription.insertNewObject(forEntityName: "Word", into: filler)
                    for (key, item) in value { word.setValue(item, forKey: key) }
                }
                try filler.save()
                filler.reset()
            }
        }
        let predicate = NSPredicate(format: format)
        let array = Implementation(name: "Swift array · same evaluator", contender: .raw) { watch in
            try watch.measure {
                var evaluator = PredicateEvaluator(evaluatedObject: nil)
                var matches = 0
                for value in values {
                    evaluator.evaluatedObject = value
                    if try evaluator.evaluate(predicate.predicateNode) { matches += 1 }
                }
                watch.checksum = matches
            }
        }
        let ours = Implementation(name: "ours · in-memory store fetch", contender: .ours) { watch in
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                try watch.measure {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
                    request.predicate = predicate
                    watch.checksum = try context.fetch(request).count
                }
            }
        }
        return Workload(group: "in-memory store", name: "fetch with a predicate: \(format)", rows: rows,
                        implementations: [array, ours],
                        targets: [Target(implementation: ours.name, maximumRatio: 3,
                                         description: "≤ 3× filtering a Swift array with the same evaluator")])
    }

    /// A small deterministic generator, so both sides see the same values in every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
