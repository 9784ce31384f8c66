import Foundation
import OpenCoreData

/// Traversing relationships of every recipe: its chef (a to-one) and its ingredients (a to-many). With
/// `relationshipKeyPathsForPrefetching` the store loads each relationship in one query for all recipes; without it
/// every chef and every ingredient set is a fault fired on its own, the pattern the seeds warn against.
///
/// The floor is the hand-written equivalent of prefetching: recipes joined to their chefs, then every ingredient in
/// one ordered scan, grouped in memory.
enum Prefetching {
    static func workload(store url: URL, recipes: Int) -> Workload {
        let model = Models.recipes()

        func traverse(_ recipes: [NSManagedObject]) -> Int {
            var checksum = 0
            for recipe in recipes {
                checksum &+= (recipe.value(forKey: "name") as? String)?.utf8.count ?? 0
                if let chef = recipe.value(forKey: "chef") as? NSManagedObject {
                    checksum &+= (chef.value(forKey: "name") as? String)?.utf8.count ?? 0
                }
                for ingredient in recipe.value(forKey: "ingredients") as? Set<NSManagedObject> ?? [] {
                    checksum &+= ((ingredient.value(forKey: "name") as? String)?.utf8.count ?? 0) &+ 1
                }
            }
            return checksum
        }

        let prefetched = Contenders.ours("ours · prefetching chef, ingredients", store: url, model: model) { context, watch in
            let objects = try watch.measure {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
                request.relationshipKeyPathsForPrefetching = ["chef", "ingredients"]
                let objects = try context.fetch(request)
                watch.checksum = traverse(objects)
                return objects
            }
            keep(objects)
        }
        let faultByFault = Contenders.ours("ours · fault by fault", store: url, model: model) { context, watch in
            let objects = try watch.measure {
                let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
                watch.checksum = traverse(objects)
                return objects
            }
            keep(objects)
        }
        let raw = Contenders.raw(store: url) { database, watch in
            try watch.measure {
                var checksum = 0
                var ingredientNames: [Int64: [String]] = [:]
                let ingredients = try database.prepare("SELECT ZRECIPE, ZNAME, ZQUANTITY FROM ZINGREDIENT ORDER BY ZRECIPE")
                while try ingredients.step() {
                    _ = ingredients.double(2)
                    ingredientNames[ingredients.int64(0), default: []].append(ingredients.text(1) ?? "")
                }
                let rows = try database.prepare("""
                    SELECT r.Z_PK, r.ZNAME, r.ZMINUTES, c.ZNAME FROM ZRECIPE r LEFT JOIN ZCHEF c ON c.Z_PK = r.ZCHEF ORDER BY r.Z_PK
                    """)
                while try rows.step() {
                    checksum &+= (rows.text(1)?.utf8.count ?? 0) &+ (rows.text(3)?.utf8.count ?? 0)
                    for name in ingredientNames[rows.int64(0)] ?? [] { checksum &+= name.utf8.count &+ 1 }
                }
                watch.checksum = checksum
            }
        }
        return Workload(group: "prefetching", name: "recipes → chef, ingredients", rows: recipes,
                        implementations: [raw, prefetched, faultByFault])
    }
}
