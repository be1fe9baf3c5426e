import Foundation
import Testing

/// Local times are those of the zone `TZ` names as the C library reads it, the times `date`
/// shows. Foundation read `TZ` only as a zone's plain name and took the other forms for UTC,
/// so `list` showed UTC times as local ones and `--since 09:00` meant 09:00 UTC.
@Suite struct LocalZoneTests {
    /// `TZ` in each form the C library takes, with a zone that keeps its offsets now.
    static let zones: [(tz: String, zone: TimeZone)] = [
        (":Asia/Kolkata", TimeZone(identifier: "Asia/Kolkata")!),
        ("/usr/share/zoneinfo/Asia/Kathmandu", TimeZone(identifier: "Asia/Kathmandu")!),
        ("IST-5:30", TimeZone(identifier: "Asia/Kolkata")!),
        ("<+0545>-5:45", TimeZone(identifier: "Asia/Kathmandu")!),
        ("UTC+14", TimeZone(secondsFromGMT: -14 * 3_600)!),
        ("CET-1CEST,M3.5.0,M10.5.0/3", TimeZone(identifier: "Europe/Paris")!),
        ("Pacific/Kiritimati", TimeZone(identifier: "Pacific/Kiritimati")!),
    ]

    @Test(arguments: zones)
    func timesAreShownAndReadInTheZoneTZNames(tz: String, zone: TimeZone) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (db, _) = try folder.catalogueOfTheSample()
        let json = try WardrobeProcess.run(["list", "--db", db, "--json"]).stdout
        let stamp = try #require(json.firstMatch(of: /"imported_at": "([^"]+)"/)?.1)
        let utc = ISO8601DateFormatter()
        utc.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let imported = try #require(utc.date(from: String(stamp)))

        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = zone
        local.dateFormat = "yyyy-MM-dd HH:mm"
        let environment = ["TZ": tz]
        let table = try WardrobeProcess.run(["list", "--db", db], environment: environment)
        #expect(table.stdout.contains(local.string(from: imported)), "TZ=\(tz): \(table.stdout)")

        local.dateFormat = "yyyy-MM-dd'T'HH:mm"
        let minute = local.string(from: imported), next = local.string(from: imported.addingTimeInterval(60))
        let since = try WardrobeProcess.run(["list", "--db", db, "--ids", "--since", minute], environment: environment)
        #expect(since.stdout == "1\n", "TZ=\(tz) --since \(minute): \(since.stdout)\(since.stderr)")
        let after = try WardrobeProcess.run(["list", "--db", db, "--ids", "--since", next], environment: environment)
        #expect(after.status == 0 && after.stdout.isEmpty, "TZ=\(tz) --since \(next): \(after.stdout)\(after.stderr)")
    }
}
