import Foundation

/// Days and times on the proleptic Gregorian calendar, back to the year 1: the calendar of
/// the catalogue's times (milliseconds since 1970 UTC, checked as the years 1 to 9999), of
/// ISO 8601, of SQLite's and PostgreSQL's date functions and of the C library's `gmtime`,
/// which `--json` and export write times through.
///
/// Foundation's Gregorian calendar is Julian before 15 October 1582, as ICU's is: a time of
/// the year 1 that `--json` wrote as 0001-01-01 the tables showed as 0001-01-03, and
/// `--until 0001-01-02` read as two days earlier and left out an image imported on the 1st.
/// Every day shown or read goes through here; Foundation's calendars are left only the
/// zone's rules (`secondsFromGMT`, a day's local start), which are the same either way.
public enum ProlepticCalendar {
    /// A day and a time of day, to the second.
    public struct Parts: Sendable, Equatable {
        public var year, month, day, hour, minute, second: Int

        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        }

        /// `YYYY-MM-DD`.
        public var dayText: String {
            Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
        }

        /// `HH:MM`, or `HH:MM:SS` with `seconds`.
        public func timeText(seconds: Bool) -> String {
            Self.padded(hour, 2) + ":" + Self.padded(minute, 2) + (seconds ? ":" + Self.padded(second, 2) : "")
        }

        private static func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
    }

    /// Whether `year-month-day` is a day of the calendar (no 29 February 1500, no 31 April).
    public static func isDay(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    /// Days from 1970-01-01 to `year-month-day` (negative before it).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        julianDayNumber(year: year, month: month, day: day, julian: false) - unixEpochDayNumber
    }

    /// The day and time (UTC shifted by `secondsEast`) of `date`, its fraction of a second dropped.
    public static func parts(of date: Date, secondsEast: Int = 0) -> Parts {
        let seconds = Int((date.timeIntervalSince1970).rounded(.down)) + secondsEast
        let (days, second) = seconds.quotientAndFlooredRemainder(dividingBy: 86_400)
        // Howard Hinnant's civil_from_days, on eras of 400 years.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return Parts(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day,
                     hour: second / 3_600, minute: second % 3_600 / 60, second: second % 60)
    }

    /// The date of `parts` read as UTC.
    public static func date(_ parts: Parts) -> Date {
        Date(timeIntervalSince1970: TimeInterval(days(year: parts.year, month: parts.month, day: parts.day) * 86_400
                                                 + parts.hour * 3_600 + parts.minute * 60 + parts.second))
    }

    /// The days by which a Foundation calendar, reading `year-month-day` as a Julian day when it
    /// falls before 15 October 1582, puts it before the same day here: 2 in the year 1, 10 in
    /// 1582, 0 from the change on. Added to what Foundation made of a written day, it gives the
    /// day written.
    public static func foundationLag(year: Int, month: Int, day: Int) -> Int {
        guard (year, month, day) < (1582, 10, 15) else { return 0 }
        return julianDayNumber(year: year, month: month, day: day, julian: false)
            - julianDayNumber(year: year, month: month, day: day, julian: true)
    }

    private static let unixEpochDayNumber = 2_440_588

    /// The astronomers' day number of a day of the Gregorian calendar or, with `julian`, of the
    /// Julian one (the Fliegel and Van Flandern formulas; years from 1).
    private static func julianDayNumber(year: Int, month: Int, day: Int, julian: Bool) -> Int {
        let a = (14 - month) / 12
        let y = year + 4_800 - a
        let m = month + 12 * a - 3
        let common = day + (153 * m + 2) / 5 + 365 * y + y / 4
        return julian ? common - 32_083 : common - y / 100 + y / 400 - 32_045
    }
}

extension Int {
    /// The quotient rounded down and a remainder in 0..<divisor (for a positive divisor).
    fileprivate func quotientAndFlooredRemainder(dividingBy divisor: Int) -> (Int, Int) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
