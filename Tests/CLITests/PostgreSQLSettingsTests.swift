import CatalogueFixtures
import Foundation
import Testing

/// A PostgreSQL catalogue whose database or role its owner configured otherwise
/// (`ALTER DATABASE ... SET`): what was stored reads back the same, or the command stops
/// with one line saying why, nothing written; never the server's words, SQL or a caret.
@Suite(.enabled(if: TestPostgres.isInstalled,
                "PostgreSQL is not installed (make deps installs it): the command line against PostgreSQL is skipped"))
struct PostgreSQLSettingsTests {
    /// What a person reads of the catalogue: every value stored, confidences to the last digit.
    static func readings(_ url: String) throws -> [String] {
        try [["list", "--json"], ["show", "--json", "1"], ["history", "--json", "2"], ["stats", "--json"]].map { arguments in
            let result = try WardrobeProcess.run(arguments + ["--db", url])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
    }

    /// `extra_float_digits` of 0 or below rounded each confidence (0.8697611689567566 read as
    /// 0.9), and a short `statement_timeout` or `lock_timeout` stopped `list` with the server's
    /// words and the SQL: the connection now sets what its reading and statements depend on.
    @Test(arguments: ["extra_float_digits = -15", "extra_float_digits = 0", "DateStyle = 'SQL, DMY'",
                      "IntervalStyle = 'sql_standard'", "TimeZone = 'Pacific/Kiritimati'", "bytea_output = 'escape'",
                      "standard_conforming_strings = off", "statement_timeout = 1", "lock_timeout = 1",
                      "idle_in_transaction_session_timeout = 1", "default_transaction_isolation = serializable"])
    func storedValuesReadBackTheSameWhateverTheDatabaseSets(_ setting: String) throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "settings")
        defer { folder.remove() }
        let before = try Self.readings(url)
        try postgres.psql("postgres", "ALTER DATABASE \(database) SET \(setting)")
        let after = try Self.readings(url)
        for (one, other) in zip(before, after) { #expect(one == other, "\(setting)") }
        let label = try WardrobeProcess.run(["label", "--db", url, "Bag", "1"])
        #expect(label.status == 0 && label.stderr.hasPrefix("labelled 1 image"), "\(setting): \(label.stderr)")
        try folder.writePhotos(1, width: 64, height: 48, firstSeed: 9)
        let imported = try WardrobeProcess.run(["import", "--quiet", "--db", url, folder.path("photos")])
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(setting): \(imported.stderr)")
    }

    /// A database set to take no writes (as a standby takes none): `label` said the server's
    /// error and the INSERT it refused, and serve's forms were a 500. One line says so, serve
    /// answers 503 with nothing saved, and reading goes on.
    @Test func aDatabaseThatTakesNoWritesIsOneLineAndStillReads() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "readonly")
        defer { folder.remove() }
        try postgres.psql("postgres", "ALTER DATABASE \(database) SET default_transaction_read_only = on")
        let label = try WardrobeProcess.run(["label", "--db", url, "Bag", "1"])
        #expect(label.status == 1 && label.stderr.split(separator: "\n").count == 1, "\(label.stderr)")
        #expect(label.stderr.contains("\(url): PostgreSQL: the database takes no writes"), "\(label.stderr)")
        #expect(!label.stderr.contains("INSERT") && !label.stderr.contains("SQLSTATE"), "\(label.stderr)")
        #expect(try WardrobeProcess.run(["list", "--db", url]).status == 0)

        let serve = try ServeProcess(db: url, readOnly: false)
        defer { serve.stop() }
        let client = try KeepAliveHTTP(port: serve.port)
        let (head, body) = try client.postLabel("Bag", image: 1)
        #expect(head.hasPrefix("HTTP/1.1 503"), "\(head)")
        #expect(body.contains("Unavailable: the catalogue&#39;s PostgreSQL database takes no writes"), "\(body)")
        #expect(try postgres.psql(database, "SELECT count(*) FROM corrections") == "0\n")
    }

    /// `session_replication_role = replica`, set by a superuser for the database, turns every
    /// trigger off: `label` said it stored a label that never reached the image, and the kept
    /// counts went wrong. A writing command is refused before it writes.
    @Test func triggersTurnedOffForTheDatabaseStopAWriteBeforeIt() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "replica")
        defer { folder.remove() }
        try postgres.psql("postgres", "ALTER DATABASE \(database) SET session_replication_role = replica")
        let label = try WardrobeProcess.run(["label", "--db", url, "Bag", "1"])
        #expect(label.status == 1 && label.stderr.split(separator: "\n").count == 1, "\(label.stderr)")
        #expect(label.stderr.contains("session_replication_role"), "\(label.stderr)")
        #expect(try postgres.psql(database, "SELECT count(*) FROM corrections") == "0\n")
        try postgres.psql("postgres", "ALTER DATABASE \(database) RESET session_replication_role")
        let check = try WardrobeProcess.run(["check", "--db", url])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// A role allowed one connection: an import, which holds two (its writer and its leases),
    /// said only "too many connections for role", as if another session were in the way. The
    /// line says that a writing command needs two and how to raise the limit; nothing is written.
    @Test func aRoleAllowedOneConnectionIsToldAWritingCommandNeedsTwo() throws {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase("limited")
        let database = String(url.split(separator: "/").last!), role = "limited\(getpid())"
        try postgres.psql("postgres", "CREATE ROLE \(role) LOGIN CONNECTION LIMIT 1; ALTER DATABASE \(database) OWNER TO \(role)")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(2, width: 64, height: 48, firstSeed: 1)
        let limited = url.replacingOccurrences(of: "postgres@", with: "\(role)@")
        let imported = try WardrobeProcess.run(["import", "--quiet", "--db", limited, folder.path("photos")])
        #expect(imported.status == 1 && imported.stderr.split(separator: "\n").count == 1, "\(imported.stderr)")
        #expect(imported.stderr.contains("too many connections for role \"\(role)\"), and a command that writes holds two "
                                         + "at once"), "\(imported.stderr)")
        #expect(imported.stderr.contains("CONNECTION LIMIT") && !imported.stderr.contains("FATAL"), "\(imported.stderr)")
        #expect(try postgres.psql(database, "SELECT count(*) FROM images") == "0\n")
        try postgres.psql("postgres", "ALTER ROLE \(role) CONNECTION LIMIT 2")
        let again = try WardrobeProcess.run(["import", "--quiet", "--db", limited, folder.path("photos")])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// A schema first in the search path holding a table called `images` stood in for the
    /// catalogue's (`list`: "column i.id does not exist", a caret and SQL). The catalogue is
    /// the one in the first schema of the path that holds one, and only that schema is searched.
    @Test func aSchemaBeforeTheCataloguesInTheSearchPathStandsInForNothing() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "shadowed")
        defer { folder.remove() }
        let before = try Self.readings(url)
        try postgres.psql(database, """
            CREATE SCHEMA shadow; CREATE TABLE shadow.images (x int); CREATE TABLE shadow.corrections (x int);
            CREATE FUNCTION shadow.add_to_count(a text, b bigint) RETURNS void LANGUAGE sql AS 'SELECT 1/0'
            """)
        try postgres.psql("postgres", "ALTER DATABASE \(database) SET search_path = shadow, public")
        let after = try Self.readings(url)
        for (one, other) in zip(before, after) { #expect(one == other) }
        let label = try WardrobeProcess.run(["label", "--db", url, "Bag", "1"])
        #expect(label.status == 0, "\(label.stderr)")
        try folder.writePhotos(1, width: 64, height: 48, firstSeed: 9)
        let imported = try WardrobeProcess.run(["import", "--quiet", "--db", url, folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try postgres.psql(database, "SELECT (SELECT count(*) FROM shadow.images) + (SELECT count(*) FROM "
                                  + "shadow.corrections) || ' ' || (SELECT count(*) FROM public.images)") == "0 3\n")
        #expect(try WardrobeProcess.run(["check", "--db", url]).status == 0)
    }

    /// Where the search path holds no catalogue. One naming no schema that exists (or a
    /// database without its `public`) said there was no catalogue, and `import` then failed
    /// with "no schema has been selected to create in" and its SQL; a schema that exists but
    /// is empty said "import first", and `import` made a second catalogue there, where the
    /// catalogue was in `public`. Each is one line naming where the catalogue is, nothing
    /// written, and the schema named in the URL opens it; a schema the URL names is chosen,
    /// so a `copy` into another schema of the same database is made there.
    @Test func aSearchPathThatLeadsElsewhereNamesWhereTheCatalogueIs() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "searchpath")
        defer { folder.remove() }
        try postgres.psql(database, "CREATE SCHEMA shadow; CREATE TABLE shadow.images (x int); CREATE SCHEMA empty")
        let cases = [("shadow", "tables images in schema shadow; this database holds one in schema public"),
                     ("empty", "no catalogue in schema empty"), ("nowhere", "names none that exists")]
        for (path, said) in cases {
            try postgres.psql("postgres", "ALTER DATABASE \(database) SET search_path = \(path)")
            for arguments in [["list"], ["import", "--quiet", folder.path("photos")]] {
                let result = try WardrobeProcess.run(arguments + ["--db", url])
                #expect(result.status == 1 && result.stderr.split(separator: "\n").count == 1, "\(path): \(result.stderr)")
                #expect(result.stderr.contains(said), "\(path): \(result.stderr)")
                #expect(!result.stderr.contains("SQLSTATE") && !result.stderr.contains("^"), "\(path): \(result.stderr)")
            }
            #expect(try postgres.psql(database, "SELECT count(*) FROM pg_tables WHERE schemaname = 'empty'") == "0\n")
            let named = try WardrobeProcess.run(["stats", "--json", "--db", url + "?options=-csearch_path%3Dpublic"])
            #expect(named.status == 0 && named.stdout.contains("\"images\" : 2"), "\(path): \(named.stderr)")
        }

        // A role that may not use the catalogue's schema has it left out of its search path.
        let role = "outsider\(getpid())"
        try postgres.psql(database, "CREATE ROLE \(role) LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role); "
                          + "REVOKE ALL ON SCHEMA public FROM PUBLIC, pg_database_owner")
        let outsider = try WardrobeProcess.run(["list", "--db", url.replacingOccurrences(of: "postgres@", with: "\(role)@")])
        #expect(outsider.status == 1 && outsider.stderr.split(separator: "\n").count == 1, "\(outsider.stderr)")
        #expect(outsider.stderr.contains("permission denied for schema public, which holds a catalogue (SQLSTATE 42501): "
                                         + "the role connected may not do this"), "\(outsider.stderr)")

        // A schema the location itself names is chosen for the catalogue: a copy goes there.
        try postgres.psql("postgres", "ALTER DATABASE \(database) RESET search_path")
        try postgres.psql(database, "CREATE SCHEMA chosen")
        let copied = try WardrobeProcess.run(["copy", url, url + "?options=-csearch_path%3Dchosen"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try postgres.psql(database, "SELECT count(*) FROM chosen.images") == "2\n")

        let bare = try postgres.newDatabase("nopublic")
        try postgres.psql(String(bare.split(separator: "/").last!), "DROP SCHEMA public")
        let imported = try WardrobeProcess.run(["import", "--quiet", "--db", bare, folder.path("photos")])
        #expect(imported.status == 1 && imported.stderr.split(separator: "\n").count == 1, "\(imported.stderr)")
        #expect(imported.stderr.contains("there is no schema to find or make the catalogue in"), "\(imported.stderr)")
    }
}
