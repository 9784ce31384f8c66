/// A `%` conversion in a format string.
enum FormatConversion: Sendable, Equatable {
    /// `%@`: any object, substituted as a constant.
    case object
    /// `%K`: a key path, given as a string.
    case keyPath
    /// `%d`, `%i`, `%ld`, `%u`, `%x`, `%o`, `%c` …: an integer.
    case integer(String)
    /// `%f`, `%e`, `%g` …: a floating-point number.
    case floatingPoint(String)
    /// `%s`: a string, substituted as a string constant.
    case string
    /// `%%`: the text "%".
    case percent
}
