import Foundation

/// What the tests need to know when `make test-sanitize` runs them: the sanitizer in use (`OCD_SANITIZER`), and how
/// much longer a child process may take than in a plain debug build (`OCD_TIMEOUT_SCALE`; instrumented builds run
/// several times slower).
public enum SanitizedRun {
    /// `address` or `thread` under `make test-asan` / `make test-tsan`; nil in a plain run.
    public static let sanitizer: String? = ProcessInfo.processInfo.environment["OCD_SANITIZER"]

    /// `seconds`, stretched by `OCD_TIMEOUT_SCALE` when it is set.
    public static func timeout(seconds: Int) -> Duration {
        let scale = ProcessInfo.processInfo.environment["OCD_TIMEOUT_SCALE"].flatMap(Int.init) ?? 1
        return .seconds(seconds * max(scale, 1))
    }
}
