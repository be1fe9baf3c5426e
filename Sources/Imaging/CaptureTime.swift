import Files
import Foundation

/// When a photo was taken, as its EXIF says: `DateTimeOriginal` (the camera's
/// clock, `2024:05:01 14:30:00`) and, where the file has it, `OffsetTimeOriginal`
/// (`+02:00`). The clock is kept as written, read as if it were UTC, so a photo
/// taken at 14:30 shows 14:30 wherever it is looked at; the offset, when known,
/// says where on Earth's clocks that was.
public struct CaptureTime: Sendable, Equatable {
    /// The camera's clock as written, read as UTC.
    public var clock: Date
    /// Minutes east of UTC, when the file says.
    public var offsetMinutes: Int?

    public init(clock: Date, offsetMinutes: Int?) {
        self.clock = clock
        self.offsetMinutes = offsetMinutes
    }

    /// From EXIF's text: `YYYY:MM:DD HH:MM:SS` (dashes in the date are taken too) and an
    /// offset `+HH:MM` or `-HH:MM`. Nil for anything else, including the blank or zero dates
    /// cameras write when their clock was never set; an offset that cannot be read is none.
    public init?(exifDate text: String, offset: String?) {
        let digits = text.utf8.map { Int($0) - 48 }
        guard text.utf8.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            range.allSatisfy { (0...9).contains(digits[$0]) } ? range.reduce(0) { $0 * 10 + digits[$1] } : nil
        }
        let separators = Array(text.utf8.prefix(19))
        guard [4, 7].allSatisfy({ separators[$0] == UInt8(ascii: ":") || separators[$0] == UInt8(ascii: "-") }),
              separators[10] == UInt8(ascii: " ") || separators[10] == UInt8(ascii: "T"),
              separators[13] == UInt8(ascii: ":"), separators[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1800...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        guard ProlepticCalendar.isDay(year: year, month: month, day: day) else { return nil }
        clock = ProlepticCalendar.date(.init(year: year, month: month, day: day, hour: hour, minute: minute,
                                             second: min(second, 59)))
        offsetMinutes = offset.flatMap(CaptureTime.offsetMinutes)
    }

    /// `+02:00` as 120, `-05:30` as -330; nil for anything else (or beyond ±14 hours).
    static func offsetMinutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        // Digits only where the numbers go: `Int` reads a sign too, and took `--9:59` for +08:01.
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
              [1, 2, 4, 5].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }) else { return nil }
        func number(_ at: Int) -> Int { Int(bytes[at] - UInt8(ascii: "0")) * 10 + Int(bytes[at + 1] - UInt8(ascii: "0")) }
        let hours = number(1), minutes = number(4)
        guard hours <= 14, minutes < 60 else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }

    /// ISO 8601 as the camera's clock showed it, with the offset when known:
    /// `2024-05-01T14:30:00+02:00`, or `2024-05-01T14:30:00`. On the calendar every other
    /// time is written in (`ProlepticCalendar`), so that a time another program stored before
    /// 1582 reads as `--json`'s other times do.
    public var text: String {
        let parts = ProlepticCalendar.parts(of: clock)
        func two(_ value: Int) -> String { String(format: "%02d", value) }
        var text = parts.dayText + "T" + parts.timeText(seconds: true)
        if let offsetMinutes {
            text += (offsetMinutes < 0 ? "-" : "+") + two(abs(offsetMinutes) / 60) + ":" + two(abs(offsetMinutes) % 60)
        }
        return text
    }
}
