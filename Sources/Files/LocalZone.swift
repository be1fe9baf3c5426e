#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The time zone local times are shown and read in: the one the C library reads from `TZ`, in
/// which `date`, `ls -l` and every other program on the machine show times. Foundation reads
/// `TZ` only when it is a zone's name; the other forms POSIX and the C library take, a name
/// after a colon (`:Europe/Paris`, `:/etc/localtime`), a zoneinfo file's path and a rule
/// (`IST-5:30`, `<+0545>-5:45`, `CET-1CEST,M3.5.0,M10.5.0/3`), it took for UTC (and would read
/// `UTC+14`, which the C library reads as 14 hours behind, as 14 ahead). Tables then showed UTC
/// times as local ones, and `--since today` or `--since 2024-05-01T09:00` began at UTC's hour.
///
/// Foundation's own zone is kept wherever it keeps the C library's offsets (checked twice a
/// month over two years around now, so a summer time counts); else the zone the name or path
/// names; else, for a rule without summer time, its one offset; else the first zone Foundation
/// knows that keeps the rule's offsets over those two years (a rule says nothing of history,
/// so a year outside them may be an hour out).
public enum LocalZone {
    public static let current: TimeZone = resolved(tz: getenv("TZ").map { String(cString: $0) })

    /// A Gregorian calendar in `current`, whatever calendar the locale would pick.
    public static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = current
        return calendar
    }

    static func resolved(tz: String?) -> TimeZone {
        tzset()
        let now = Date()
        let instants = stride(from: -365.0, through: 365, by: 15).map { now.addingTimeInterval($0 * 86_400) }
        let offsets = instants.map(cLibraryOffset)
        func keepsOffsets(_ zone: TimeZone) -> Bool {
            zip(instants, offsets).allSatisfy { zone.secondsFromGMT(for: $0) == $1 }
        }
        if keepsOffsets(TimeZone.current) { return TimeZone.current }
        if let named = tz.flatMap(zone(named:)), keepsOffsets(named) { return named }
        if Set(offsets).count == 1, let fixed = TimeZone(secondsFromGMT: offsets[0]) { return fixed }
        return TimeZone.knownTimeZoneIdentifiers.lazy.compactMap(TimeZone.init(identifier:)).first(where: keepsOffsets)
            ?? TimeZone(secondsFromGMT: cLibraryOffset(now)) ?? TimeZone.current
    }

    /// The zone a `TZ` of a zone's name or a zoneinfo file's path names, with or without the
    /// colon before it (`:/etc/localtime` is a link into the zoneinfo folder).
    private static func zone(named tz: String) -> TimeZone? {
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        guard name.hasPrefix("/") else { return TimeZone(identifier: name) }
        let path = URL(fileURLWithPath: name).resolvingSymlinksInPath().path
        guard let folder = path.range(of: "/zoneinfo/", options: .backwards) else { return nil }
        return TimeZone(identifier: String(path[folder.upperBound...]))
    }

    /// Seconds east of UTC at `date`, as the C library's `localtime_r` gives them.
    private static func cLibraryOffset(_ date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}
