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
