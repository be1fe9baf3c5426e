import CPostgreSQL
import Foundation

/// A catalogue location that names a PostgreSQL database: a `postgresql://` or
/// `postgres://` URL, or libpq's keyword form (`host=... dbname=...`). libpq
/// itself reads the location (and with it `PGPASSFILE`, `PGSERVICE`, `sslmode`);
/// this type only tells such a location from a file's path and gives the name
/// messages use, which never holds a password.
public struct PostgresLocation: Sendable, Equatable {
    /// What libpq is given to connect, password and all.
    let connectionString: String
    /// The server and database as messages name them: `postgresql://user@host:port/dbname`.
    public let displayName: String

    /// Nil when `location` names no PostgreSQL database (a file's path).
    public init?(_ location: String) {
        guard PostgresLocation.namesServer(location) else { return nil }
        // Without libpq nothing can read the location: it is named without its parts (so
        // without its password), and opening it says that libpq could not be loaded.
        guard wardrobe_load_libpq(nil) == 1 else {
            connectionString = location
            displayName = PostgresLocation.displayName([:])
            return
        }
        guard let options = PostgresLocation.options(of: location) else { return nil }
        connectionString = location
        displayName = PostgresLocation.displayName(options)
    }

    /// Whether `location` is meant for libpq: a URL of its schemes, or a first word of the form
    /// `keyword=` whose keyword is one libpq knows (so a file called `notes=old.sqlite` stays a file).
    static func namesServer(_ location: String) -> Bool {
        let lowered = location.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") { return true }
        let trimmed = location.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingCharacters(in: [" ", "\t"])
        return keywords.contains(keyword)
    }

    /// libpq's keywords, from libpq itself; none where libpq cannot be loaded (then no
    /// location in the keyword form can be opened anyway, and it is taken for a file's path).
    private static let keywords: Set<String> = {
        var found: Set<String> = []
        guard wardrobe_load_libpq(nil) == 1, let defaults = PQconndefaults() else { return found }
        defer { PQconninfoFree(defaults) }
        var option = defaults
        while let keyword = option.pointee.keyword {
            found.insert(String(cString: keyword))
            option += 1
        }
        return found
    }()

    /// The options libpq reads from `location`, nil when it cannot parse them.
    private static func options(of location: String) -> [String: String]? {
        var message: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(location, &message) else {
            if let message { PQfreemem(message) }
            return nil
        }
        defer { PQconninfoFree(parsed) }
        var options: [String: String] = [:]
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { options[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return options
    }

    /// Why libpq cannot read `location`, nil when it can (or libpq cannot be loaded): libpq's
    /// own words, with the value it quotes left out, as it may be the password
    /// (`invalid percent-encoded token: "s3cret%zz"`), which may itself hold quotes: all from
    /// the first quote to the last is left out, but for the `"]"` and `"="` of libpq's own
    /// words, and the name of an option libpq does not know (letters and `_` only) is kept.
    /// The refusal said only that libpq could not read the location, so `?sslmod=require`
    /// was a hunt through the whole URL.
    static func unreadable(_ location: String) -> String? {
        guard wardrobe_load_libpq(nil) == 1 else { return nil }
        var message: UnsafeMutablePointer<CChar>?
        if let parsed = PQconninfoParse(location, &message) {
            PQconninfoFree(parsed)
            return nil
        }
        guard let message else { return "libpq gave no reason" }
        defer { PQfreemem(message) }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["invalid URI query parameter: \"", "invalid connection option \""] where text.hasPrefix(prefix) {
            let name = text.dropFirst(prefix.count)
            if name.hasSuffix("\""), name.dropLast().allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) { return text }
        }
        // The characters libpq's own words quote, before the value, stand aside while the rest is
        // cut (only their first place: the value comes after; no NUL is in libpq's message).
        let standIns = [("matching \"]\" in", "\u{0}1"), ("missing \"=\" after", "\u{0}2"), ("separator \"=\" in", "\u{0}3")]
        var kept = standIns.reduce(text) { text, standIn in
            text.range(of: standIn.0).map { text.replacingCharacters(in: $0, with: standIn.1) } ?? text
        }
        if let first = kept.firstIndex(of: "\"") {
            let last = kept.lastIndex(of: "\"") ?? first
            kept = String(kept[..<first]) + "\"…\"" + (last > first ? String(kept[kept.index(after: last)...]) : "")
        }
        return standIns.reduce(kept) { $0.replacingOccurrences(of: $1.1, with: $1.0) }
    }

    /// Built from the parsed options, never from the text given: whatever form the password came
    /// in (`user:secret@`, `password=secret`, `?password=secret`), it is not among the parts named.
    private static func displayName(_ options: [String: String]) -> String {
        var name = "postgresql://"
        if let user = options["user"], !user.isEmpty { name += user + "@" }
        if let host = options["host"] ?? options["hostaddr"], !host.isEmpty {
            // A Unix socket's folder, written as a URL writes it.
            name += host.hasPrefix("/") ? host.replacingOccurrences(of: "/", with: "%2F") : host
        }
        if let port = options["port"], !port.isEmpty { name += ":" + port }
        name += "/" + (options["dbname"] ?? "")
        if let service = options["service"], !service.isEmpty { name += "?service=" + service }
        return name
    }
}
