/// The user info dictionaries of entities and properties: Apple's `[AnyHashable: Any]` in memory, text in model files.
///
/// Xcode's model format and compiled models hold string keys and string values, and the library's readers (the
/// schema report, the model writer, the store's model cache) read them as such. A value set in code keeps its type in
/// memory, as on Apple's platforms; where it is written or read as text, a key or value that is not a `String` is
/// written as `String(describing:)` of it (`3` as "3", `true` as "true"), and when a converted key meets a `String` key
/// of the same text, the `String` key's entry is kept.
package enum ModelUserInfo {
    /// The entries of `info` as text (see the type's rule).
    package static func strings(_ info: [AnyHashable: Any]) -> [String: String] {
        var result: [String: String] = [:]
        var converted: [String: String] = [:]
        for (key, value) in info {
            let valueText = value as? String ?? String(describing: value)
            if let key = key.base as? String {
                result[key] = valueText
            } else {
                let keyText = String(describing: key.base)
                // Entries of a dictionary come in no fixed order: keep the smallest value text so the result is too.
                if let kept = converted[keyText], kept <= valueText { continue }
                converted[keyText] = valueText
            }
        }
        return result.merging(converted) { stringKeyed, _ in stringKeyed }
    }

    /// `strings` as a dictionary of Apple's type, as a model file's entries are stored.
    package static func dictionary(_ strings: [String: String]) -> [AnyHashable: Any] {
        Dictionary(uniqueKeysWithValues: strings.map { (AnyHashable($0.key), $0.value as Any) })
    }
}
