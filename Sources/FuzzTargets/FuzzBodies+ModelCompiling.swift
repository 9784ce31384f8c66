import CoreDataModel
import Foundation

extension FuzzBodies {
    /// What `coredata compile-model` and the build plugin do with a model read from its source: archive it as a
    /// `.mom`. The writer may refuse a model, naming the part it cannot archive (a predicate that does not parse);
    /// what it writes must read back with the same entity version hashes.
    static func checkCompiles(_ model: NSManagedObjectModel) throws {
        let data: Data
        do {
            data = try CompiledModelWriter.archive(model)
        } catch is CompiledModelWriter.ArchivingError {
            return
        } catch {
            throw FuzzViolation("compiling threw \(type(of: error)) instead of an ArchivingError: \(error)")
        }
        let back: NSManagedObjectModel
        do {
            back = try CompiledModelReader(file: "fuzz.mom").read(data)
        } catch {
            throw FuzzViolation("the compiled model does not read back: \(error)")
        }
        guard back.entityVersionHashesByName == model.entityVersionHashesByName else {
            throw FuzzViolation("the compiled model reads back with other version hashes")
        }
    }
}
