import Files
import Foundation

/// Reads the dates `--since` and `--until` accept: a day (`2024-05-01`,
/// midnight local time), a time (`2024-05-01T14:30`, `2024-05-01T14:30:00Z`,
/// with an optional offset), `today`, `yesterday`, or an age (`90m`, `12h`,
/// `7d`, `2w` ago).
public enum DateArgument {
    public static let accepted = "YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.SSS]][Z|+HH:MM], today, yesterday, or an age like 12h, 7d, 2w"

    /// A date in the years 1 to 9999 (of `calendar`): an age that reaches further
    /// (`99999999999999d`) or a year beyond them is refused. Such a date overflowed on its
    /// way to the catalogue's milliseconds, or made no range with the listing's open end
    /// (`list --since 9999-12-31`), and stopped the command.
    /// Local times and days are in `LocalZone`'s zone, the one `TZ` names as the C library reads it.
    public static func parse(_ text: String, now: Date = Date(), calendar: Calendar = LocalZone.calendar) throws(WardrobeError) -> Date {
        let date = try parsed(text, now: now, calendar: calendar)
        // Seconds far past the years 1 to 9999 first: a day count that large has no year here.
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e13,
              (1...9999).contains(ProlepticCalendar.parts(of: date, secondsEast: calendar.timeZone.secondsFromGMT(for: date)).year) else {
            throw .invalidArgument("invalid date '\(text)': a date in the years 1 to 9999")
        }
        return date
    }

    private static func parsed(_ text: String, now: Date, calendar: Calendar) throws(WardrobeError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let midnight = calendar.startOfDay(for: now)
        switch trimmed {
        case "now": return now
        case "today": return midnight
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: midnight)!
        default: break
        }
        if let unit = trimmed.last, let seconds = ["m": 60.0, "h": 3600, "d": 86400, "w": 604_800][String(unit)],
           let amount = Double(trimmed.dropLast()), amount >= 0, amount.isFinite {
            return now.addingTimeInterval(-amount * seconds)
        }
        if let date = day(trimmed, calendar: calendar) ?? time(trimmed.uppercased(), calendar: calendar) {
            return date
        }
        throw .invalidArgument("invalid date '\(text)': use \(accepted)")
    }

    /// The day's local start: the day is counted on `ProlepticCalendar` (Foundation's calendar
    /// reads one before 1582 as Julian), its start where the zone's clocks begin it.
    private static func day(_ text: String, calendar: Calendar) -> Date? {
        guard let (year, month, day) = wholeDay(text) else { return nil }
        let noonUTC = Date(timeIntervalSince1970: TimeInterval(ProlepticCalendar.days(year: year, month: month, day: day)
                                                               * 86_400 + 43_200))
        return calendar.startOfDay(for: noonUTC.addingTimeInterval(-TimeInterval(calendar.timeZone.secondsFromGMT(for: noonUTC))))
    }

    /// The year, month and day `text` is (`YYYY-MM-DD` and nothing more), when the calendar has
    /// that day (no 31 February).
    private static func wholeDay(_ text: String) -> (Int, Int, Int)? {
        guard text.count == 10, let (year, month, day) = writtenDay(text),
              ProlepticCalendar.isDay(year: year, month: month, day: day) else { return nil }
        return (year, month, day)
    }

    /// The year, month and day a date or time starts with (`YYYY-MM-DD`).
    private static func writtenDay(_ text: String) -> (Int, Int, Int)? {
        let parts = text.prefix(10).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        return (year, month, day)
    }

    /// A time read by Foundation's formatters, moved to the day written where they read it as
    /// Julian (before 15 October 1582).
    private static func time(_ text: String, calendar: Calendar) -> Date? {
        guard let (year, month, day) = writtenDay(text), ProlepticCalendar.isDay(year: year, month: month, day: day),
              let date = foundationTime(text, calendar: calendar) else { return nil }
        return date.addingTimeInterval(TimeInterval(ProlepticCalendar.foundationLag(year: year, month: month, day: day) * 86_400))
    }

    private static func foundationTime(_ text: String, calendar: Calendar) -> Date? {
        guard zoneIsPlausible(text) else { return nil }
        let withZone = ISO8601DateFormatter()
        withZone.formatOptions = [.withInternetDateTime]
        if let date = withZone.date(from: text) { return date }
        // With a fraction of a second, as `list --json` and `--csv` write times: a time copied
        // from there was refused as an invalid date.
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        // A zone after minutes without seconds (`2024-05-01T14:30Z`, `...T14:30+01:00`), a form
        // `accepted` names, which the formatter reads only with seconds.
        let characters = Array(text)
        if characters.count > 16, characters[13] == ":", "Z+-".contains(characters[16]),
           let date = withZone.date(from: String(characters[..<16]) + ":00" + String(characters[16...])) {
            return date
        }
        // No zone given: local time, as a person typing a time means it. Read on UTC's clock,
        // which has every time, then set on the local one as a day is (`calendar.date(from:)`):
        // a time the local clocks skip (02:30 the night they go forward) is where they went on
        // to, as a day that starts at 01:00 starts there. Read on the local clock it was
        // refused as an invalid date, in a form the message then gave as the one to use.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let wall = DateFormatter()
        wall.locale = Locale(identifier: "en_US_POSIX")
        wall.timeZone = utc.timeZone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm",
                       "yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd HH:mm:ss.SSS"] {
            wall.dateFormat = format
            guard let read = wall.date(from: text) else { continue }
            let whole = read.timeIntervalSince1970.rounded(.down)
            let parts = utc.dateComponents([.era, .year, .month, .day, .hour, .minute, .second],
                                           from: Date(timeIntervalSince1970: whole))
            return calendar.date(from: parts)?.addingTimeInterval(read.timeIntervalSince1970 - whole)
        }
        return nil
    }

    /// False for a time whose offset from UTC no clock keeps: hours past 14 or minutes past 59
    /// (`+99:00`, `+14:60`, `-9999`). The formatter took them, and the time moved by days:
    /// `--since 2024-05-01T14:30-99:59` listed nothing, without a word.
    private static func zoneIsPlausible(_ text: String) -> Bool {
        let characters = Array(text)
        // The zone's sign comes after the time (`YYYY-MM-DDTHH:MM` is 16 characters).
        guard characters.count > 16,
              let sign = characters[16...].lastIndex(where: { $0 == "+" || $0 == "-" }) else { return true }
        let digits = characters[(sign + 1)...].filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hours = Int(String(digits[0..<2])), let minutes = Int(String(digits[2..<4])) else { return false }
        return hours <= 14 && minutes <= 59
    }

    /// The day after `day` (`YYYY-MM-DD`), written alike; nil when `day` is no such day.
    public static func nextDay(after day: String) -> String? {
        guard let (year, month, dayOfMonth) = wholeDay(day) else { return nil }
        let next = ProlepticCalendar.days(year: year, month: month, day: dayOfMonth) + 1
        return ProlepticCalendar.parts(of: Date(timeIntervalSince1970: TimeInterval(next * 86_400))).dayText
    }
}
