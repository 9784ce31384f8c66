#if canImport(Glibc)
import Glibc
#endif

/// A UTF-8 character locale for the tests that need one (readline's multibyte editing, the `wcwidth` cross-check),
/// set once for the whole test process.
enum TestLocale {
    private static let isUTF8: Bool = {
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            return true
        }
        return false
    }()

    /// Switches the process to a UTF-8 character locale; false when none is installed.
    @discardableResult
    static func useUTF8() -> Bool { isUTF8 }
}
