import Files
import Foundation

extension Format {
    /// Local date and time to the minute, as tables show it: in the zone `TZ` names as the C
    /// library reads it (`LocalZone`), as `date` shows it, on the calendar `--json` writes
    /// (`ProlepticCalendar`: Foundation's formatter showed the year 1's first day as its third).
    public static func day(_ date: Date) -> String {
        let parts = ProlepticCalendar.parts(of: date, secondsEast: LocalZone.current.secondsFromGMT(for: date))
        return parts.dayText + " " + parts.timeText(seconds: false)
    }

    /// A byte count for people: 512 B, 34.5 KB, 2.1 MB.
    public static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }
}
