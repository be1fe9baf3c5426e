import Catalogue
import Testing

/// Which locations name a PostgreSQL database, and how messages name them: never with a password.
@Suite struct PostgresLocationTests {
    @Test(arguments: [
        ("postgresql://me:s3cret@db.example.org:5433/wardrobe?sslmode=verify-full", "postgresql://me@db.example.org:5433/wardrobe"),
        ("postgres://me@db.example.org/wardrobe?password=s3cret", "postgresql://me@db.example.org/wardrobe"),
        ("host=/var/run/postgresql dbname=wardrobe user=me password=s3cret", "postgresql://me@%2Fvar%2Frun%2Fpostgresql/wardrobe"),
        ("  dbname='my wardrobe'", "postgresql:///my wardrobe"),
    ])
    func aServerIsNamedWithoutItsPassword(location: String, name: String) throws {
        let parsed = try #require(PostgresLocation(location))
        #expect(parsed.displayName == name)
        #expect(!parsed.displayName.contains("s3cret"))
        #expect(CatalogueStorage.isServer(location) && CatalogueStorage.displayName(of: location) == name)
    }

    @Test(arguments: ["catalogue.sqlite", "/home/me/notes=old.sqlite", "notes=old.sqlite", "./host=x", ":memory:",
                      "postgresql.sqlite", "/tmp/postgres://x"])
    func everythingElseIsAFile(location: String) {
        #expect(PostgresLocation(location) == nil && !CatalogueStorage.isServer(location))
        #expect(CatalogueStorage.displayName(of: location) == location)
    }

    /// A URL for a server that libpq cannot read was taken for a file's path ("no catalogue
    /// there yet"; `import` would make one under a folder `postgresql:`). Refused for what it
    /// is, in every mode, without repeating the location (it may hold a password).
    /// It says libpq's reason, which it did not ("?sslmod=require" meant reading the whole URL
    /// for the mistake), without any value libpq quotes.
    @Test(arguments: [("postgresql://me:s3cret@[::1/wardrobe", "(end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"…\")"),
                      ("postgres://me:s3cret@host/db?nonsense=1", "(invalid URI query parameter: \"nonsense\")"),
                      ("postgresql://me:s3cret@host/db%zz", "(invalid percent-encoded token: \"…\")"),
                      ("postgresql://me:s3cret%zz@host/db", "(invalid percent-encoded token: \"…\")"),
                      ("host=h dbname=d password s3cret", "(missing \"=\" after \"…\" in connection info string)"),
                      ("host=h dbname=d sslmod=require password=s3cret", "(invalid connection option \"sslmod\")")])
    func aServerLocationLibpqCannotReadIsRefusedNotTakenForAFile(location: String, reason: String) throws {
        for access in [CatalogueStorage.Access.create, .readWrite, .readOnly] {
            do {
                _ = try CatalogueStorage.open(location, access: access)
                Issue.record("opened \(location)")
            } catch let error as CatalogueError {
                #expect(error.description.contains("meant for PostgreSQL, but libpq cannot read it \(reason); write it as"), "\(error)")
                #expect(!error.description.contains("s3cret"))
            }
        }
    }
}
