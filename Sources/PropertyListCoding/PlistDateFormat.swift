import Foundation

/// The XML plist date format, `YYYY-MM-DDTHH:MM:SSZ` in UTC, converted with proleptic Gregorian arithmetic so that
/// no `DateFormatter` (and its locale and time-zone state) is involved.
enum PlistDateFormat {
    /// Seconds from 1970-01-01 to the plist epoch 2001-01-01.
    private static let secondsFrom1970To2001: Int64 = 978_307_200

    /// The latest and earliest seconds (relative to 2001) written: years 1 to 9999, four digits.
    private static let representableSeconds: ClosedRange<Double> = -63_113_904_000 ... 252_423_993_599

    /// The text for `date`, rounded down to whole seconds as Apple's writer does.
    static func string(from date: Date) throws -> String {
        let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
        guard representableSeconds.contains(seconds) else {
            throw PropertyListError(reason: "date \(date.timeIntervalSinceReferenceDate) s after 2001 has no XML form")
        }
        let unixSeconds = Int64(seconds) + secondsFrom1970To2001
        let (days, secondOfDay) = floorDivision(unixSeconds, 86_400)
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        return "\(padded(year, width: 4))-\(padded(month, width: 2))-\(padded(day, width: 2))T"
            + "\(padded(secondOfDay / 3600, width: 2)):\(padded(secondOfDay / 60 % 60, width: 2)):"
            + "\(padded(secondOfDay % 60, width: 2))Z"
    }

    /// The date in `text`; accepts an optional fractional part before the `Z`. Nil when the text is malformed.
    static func date(from text: String) -> Date? {
        let scalars = Array(text.unicodeScalars)
        var position = 0
        func number(digits: Int) -> Int64? {
            guard position + digits <= scalars.count else { return nil }
            var value: Int64 = 0
            for scalar in scalars[position..<(position + digits)] {
                guard isDigit(scalar) else { return nil }
                value = value * 10 + Int64(scalar.value - 48)
            }
            position += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard position < scalars.count, Character(scalars[position]) == character else { return false }
            position += 1
            return true
        }
        guard let year = number(digits: 4), expect("-"), let month = number(digits: 2), expect("-"),
              let day = number(digits: 2), expect("T"), let hour = number(digits: 2), expect(":"),
              let minute = number(digits: 2), expect(":"), let second = number(digits: 2) else { return nil }
        var fraction = 0.0
        if expect(".") {
            let start = position
            while position < scalars.count, isDigit(scalars[position]) {
                position += 1
            }
            guard position > start, let value = Double("0." + String(String.UnicodeScalarView(scalars[start..<position]))) else {
                return nil
            }
            fraction = value
        }
        guard expect("Z"), position == scalars.count else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let unixSeconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSinceReferenceDate: Double(unixSeconds - secondsFrom1970To2001) + fraction)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func padded(_ value: Int64, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 { quotient -= 1; remainder += divisor }
        return (quotient, remainder)
    }

    private static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01, counting in 400-year eras of 146,097 days from a year that starts in March, so that
    /// the leap day falls at the end of the counted year.
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivision(marchYear, 400)
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSince1970`.
    private static func civilDate(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (era, dayOfEra) = floorDivision(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
