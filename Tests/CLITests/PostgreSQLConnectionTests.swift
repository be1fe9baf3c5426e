import CatalogueFixtures
import Foundation
import Testing

/// Each connection to a server is a server process, and `--jobs` defaults to the number of
/// cores: a run's workers on a server read through the process's lease connection, so an
/// import or a reclassification opens its writer's connection and that one, whatever its jobs.
/// Counted by the server itself (`pg_stat_database.sessions`, which counts a session as it ends).
@Suite(.enabled(if: TestPostgres.isInstalled,
                "PostgreSQL is not installed (make deps installs it): the command line against PostgreSQL is skipped"))
struct PostgreSQLConnectionTests {
    /// Sessions the server has seen end in `database`, once the count has stood still for a
    /// quarter of a second (a backend counts its session as it exits, after its client has gone).
    static func sessions(_ postgres: TestPostgres, _ database: String) throws -> Int {
        var last = -1
        for _ in 0..<40 {
            Thread.sleep(forTimeInterval: 0.25)
            let now = Int(try postgres.psql("postgres", "SELECT sessions FROM pg_stat_database WHERE datname = '\(database)'")
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            if now == last { return now }
            last = now
        }
        return last
    }

    @Test func importAndReclassifyWithFourJobsOpenTwoConnections() throws {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase("connections")
        let database = String(url.split(separator: "/").last!)
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(24, width: 120, height: 90, firstSeed: 3)
        // The catalogue made first (an import of nothing), so the import below only imports.
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: true)
        let made = try WardrobeProcess.run(["import", "--db", url, folder.path("empty")])
        #expect(made.status == 0, "\(made.stderr)")
        for arguments in [["import", "--jobs", "4", "--db", url, folder.path("photos")],
                          ["reclassify", "--jobs", "4", "--prep", "fashion-mnist", "--db", url]] {
            let before = try Self.sessions(postgres, database)
            let result = try WardrobeProcess.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let opened = try Self.sessions(postgres, database) - before
            #expect(opened == 2, "\(arguments[0]) opened \(opened) connections")
        }
        // And the work was done: every photo imported, then classified again.
        struct Stats: Decodable { var images: Int; var classifications: Int }
        let stats = try JSONDecoder().decode(Stats.self, from: Data(try WardrobeProcess.run(["stats", "--json", "--db", url]).stdout.utf8))
        #expect(stats.images == 24 && stats.classifications == 48, "\(stats)")
    }
}
