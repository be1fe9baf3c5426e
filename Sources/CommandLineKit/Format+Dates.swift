import Files
import Foundation

extension Format {
    /// Local date and time to the minute, as tables show it: in the zone `TZ` names as the C
    /// library reads it (`LocalZone`), as `date` shows it.
    public static func day(_ date: Date) -> String {
        dayFormatter.string(from: date)
    }

    private static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = LocalZone.current
        return formatter
    }()

    /// A byte count for people: 512 B, 34.5 KB, 2.1 MB.
    public static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }
}
