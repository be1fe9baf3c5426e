import CatalogueFixtures
import Foundation
import Testing

/// The command line on a PostgreSQL catalogue (a real server the tests start,
/// `TestPostgres`), against the same commands on an SQLite file.
@Suite(.enabled(if: TestPostgres.isInstalled,
                "PostgreSQL is not installed (make deps installs it): the command line against PostgreSQL is skipped"))
struct PostgreSQLCommandTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/photos").path
    static let coat = photos + "/outwear/0ad8629f-2e9f-4591-a661-7489d6d49737.jpg"

    /// The loop a person runs, as the text each command prints; the catalogue's name, times
    /// and the last digits of means (which the engines add in their own order) made alike.
    static func loop(on location: String, export: String) throws -> [String] {
        var outputs: [String] = []
        func run(_ arguments: [String]) throws {
            let result = try WardrobeProcess.run(arguments + ["--db", location])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            outputs.append(normalized("$ wardrobe \(arguments.joined(separator: " "))\n" + result.stdout, location))
        }
        try run(["import", "--jobs", "1", "--json", photos])
        try run(["list", "--json"])
        try run(["list", "--label", "shirt"])
        try run(["show", "--json", coat])
        try run(["similar", "--json", coat])
        try run(["duplicates", "--json"])
        try run(["label", "coat", coat])
        try run(["label", "none", "1"])
        try run(["history", "--json", coat])
        try run(["stats", "--json"])
        try run(["reclassify", "--prep", "fashion-mnist", "--json"])
        try run(["list", "--json", "--path", "*/pants/*"])
        try run(["export", "--output", export])
        outputs.append((try? String(contentsOfFile: export, encoding: .utf8)).map { normalized($0, location) } ?? "no export")
        try run(["failures"])
        try run(["model", "list"])
        try run(["stats"])
        return outputs
    }

    static func normalized(_ text: String, _ location: String) -> String {
        var text = text.replacingOccurrences(of: location, with: "CATALOGUE")
        for (pattern, replacement) in [(#"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?Z?)?"#, "TIME"),
                                       (#"(\d+\.\d{9})\d+"#, "$1"), (#"/[^ ]*/export-[a-z]+\.csv"#, "FILE"),
                                       (#"in \d+(\.\d+)? ?m?s"#, "in SECONDS"),
                                       (#""(images_per_second|seconds)" : [0-9.e+-]+"#, #""$1" : RATE"#)] {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    @Test func theLoopPrintsTheSameOnBothEngines() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("catalogue.sqlite").path
        let server = try TestPostgres.shared().newDatabase()
        let expected = try Self.loop(on: file, export: folder.appendingPathComponent("export-sqlite.csv").path)
        let found = try Self.loop(on: server, export: folder.appendingPathComponent("export-postgresql.csv").path)
        #expect(expected.count == found.count)
        for (one, other) in zip(expected, found) { #expect(one == other) }
        // What was imported is there: twelve photos, the coat labelled by a person.
        #expect(found[1].components(separatedBy: "\"sha256\"").count - 1 == 12)
        #expect(found[4].components(separatedBy: "\"distance\"").count - 1 == 10, "similar lists ten of the twelve")
        #expect(found[8].contains("\"Coat\""))
    }

    /// The rest of the loop on a server: a fine-tune from the labels a person gave there, a
    /// reclassification by the new model, and serve's pages, all on the PostgreSQL catalogue,
    /// reached with a password that no output, error line or model file holds.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func theLoopTrainsReclassifiesAndServesOnAServer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let postgres = try TestPostgres.shared()
        let role = "looper\(getpid())", secret = "staple-\(getpid())-battery"
        try postgres.role(role, password: secret)
        let plain = try postgres.newDatabase()
        try #require(plain.contains("postgres@"), "\(plain)")
        let server = plain.replacingOccurrences(of: "postgres@", with: "\(role):\(secret)@")
        func run(_ arguments: [String]) throws -> WardrobeProcess.Result {
            let result = try WardrobeProcess.run(arguments + ["--db", server])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(secret), "\(arguments) printed the password")
            return result
        }
        _ = try run(["import", "--jobs", "1", "--quiet", Self.photos])
        _ = try run(["label", "coat", Self.coat])
        for kind in ["pants", "shoes", "dress"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.photos + "/" + kind).sorted()
            _ = try run(["label", ["pants": "trouser", "shoes": "sneaker", "dress": "dress"][kind]!]
                        + files.map { Self.photos + "/" + kind + "/" + $0 })
        }
        let tuned = folder.appendingPathComponent("tuned.aimodel").path
        let parent = FileManager.default.currentDirectoryPath + "/Models/fashion-mnist-only.aimodel"
        let train = try run(["model", "train", "--corrections", "--from", parent, "--limit", "64", "--epochs", "1", "--out", tuned])
        #expect(train.stderr.contains("corrections in postgresql://\(role)@"), "\(train.stderr)")
        let info = try WardrobeProcess.run(["model", "info", "--json", tuned])
        #expect(info.stdout.contains("postgresql://\(role)@"), "the model records the catalogue it learned from")
        let modelFile = try Data(contentsOf: URL(fileURLWithPath: tuned))
        #expect(modelFile.range(of: Data(secret.utf8)) == nil, "the model file holds the password")
        #expect(!info.stdout.contains(secret))
        let refused = try WardrobeProcess.run(["list", "--db", server.replacingOccurrences(of: secret, with: secret + "x")])
        #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(!refused.stderr.contains(secret), "an error line holds the password")
        let reclassified = try run(["reclassify", "--model", tuned, "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(reclassified.stdout.utf8)) as? [String: Any]
        #expect(report?["reclassified"] as? Int == 12 && report?["model"] as? String == "tuned@1.0", "\(reclassified.stdout)")
        let history = try run(["history", "--json", Self.coat])
        #expect(history.stdout.components(separatedBy: "\"run\"").count - 1 >= 2, "import's and the reclassification's")

        let serve = try ServeProcess(db: server)
        defer { serve.stop() }
        let gallery = try KeepAliveHTTP(port: serve.port).get("/")
        #expect(gallery.contains("All (12)"), "\(gallery.prefix(400))")
        let coats = try KeepAliveHTTP(port: serve.port).get("/?label=coat")
        #expect(coats.contains("Coat"))
    }

    /// A role that may read the catalogue but not write it: `label` said the server's error
    /// and the SQL, and serve, not started read-only, offered forms whose every POST was a
    /// 500 "for a reason on the server's side". The line now says what the role lacks, and
    /// serve answers 503, nothing saved.
    @Test func aRoleThatMayOnlyReadIsToldWhatItLacksAndServeSavesNothing() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "denied")
        defer { folder.remove() }
        let role = "reader\(getpid())"
        try postgres.psql(database, "CREATE ROLE \(role) LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
        let reader = url.replacingOccurrences(of: "postgres@", with: "\(role)@")
        func corrections() throws -> String {
            try postgres.psql(database, "SELECT count(*) FROM corrections").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        let label = try WardrobeProcess.run(["label", "--db", reader, "Bag", "1"])
        #expect(label.status == 1)
        #expect(label.stderr.split(separator: "\n").count == 1, "\(label.stderr)")
        #expect(label.stderr.contains("permission denied for table corrections (SQLSTATE 42501): the role connected may "
                                      + "not do this; grant it SELECT, INSERT, UPDATE and DELETE"), "\(label.stderr)")
        #expect(!label.stderr.contains("INSERT INTO"), "\(label.stderr)")

        let serve = try ServeProcess(db: reader, readOnly: false)
        defer { serve.stop() }
        let client = try KeepAliveHTTP(port: serve.port)
        let (head, body) = try client.postLabel("Bag", image: 1)
        #expect(head.hasPrefix("HTTP/1.1 503"), "\(head)")
        #expect(body.contains("Unavailable: the catalogue&#39;s PostgreSQL role may not do this (permission denied for "
                              + "table corrections), so nothing was saved."), "\(body)")
        #expect(try corrections() == "0")
        #expect(serve.isRunning)
    }

    @Test func theKeywordFormAndWardrobeDBOpenTheSameCatalogue() throws {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase()
        let name = String(url.split(separator: "/").last!)
        let imported = try WardrobeProcess.run(["import", "--db", url, Self.photos + "/pants"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let keywords = "host=\(postgres.folder) dbname=\(name) user=postgres"
        let listed = try WardrobeProcess.run(["list", "--json", "--db", keywords])
        #expect(listed.status == 0 && listed.stdout.components(separatedBy: "\"sha256\"").count - 1 == 2, "\(listed.stderr)")
        let environment = try WardrobeProcess.run(["stats", "--json"], environment: ["WARDROBE_DB": url])
        #expect(environment.status == 0 && environment.stdout.contains("\"images\" : 2"), "\(environment.stdout)")
    }

    @Test func whatCannotMeanTheSameSaysWhatToUseInstead() throws {
        let url = try TestPostgres.shared().newDatabase()
        #expect(try WardrobeProcess.run(["import", "--db", url, Self.photos + "/pants"]).status == 0)
        let backup = try WardrobeProcess.run(["backup", "--db", url, NSTemporaryDirectory() + "pg-backup-\(getpid()).sqlite"])
        #expect(backup.status == 1 && backup.stderr.contains("pg_dump") && backup.stderr.split(separator: "\n").count == 1)
        let forget = try WardrobeProcess.run(["forget", "--yes", "--db", url, "1"])
        #expect(forget.status == 0 && forget.stderr.contains("VACUUM"), "\(forget.stderr)")
        let check = try WardrobeProcess.run(["check", "--db", url])
        #expect(check.status == 0 && check.stdout.contains("pg_amcheck"))
    }

    @Test func aServerThatIsNotThereIsOneLineNamingIt() throws {
        let missing = "postgresql://someone:hunter2secret@%2Fnonexistent%2Fsocket/nowhere"
        let result = try WardrobeProcess.run(["list", "--db", missing])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("postgresql://someone@%2Fnonexistent%2Fsocket/nowhere"), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2secret"))
    }
}

/// Faults are normal: the server ending every connection in the middle of an import.
@Suite(.enabled(if: TestPostgres.isInstalled,
                "PostgreSQL is not installed (make deps installs it): the command line against PostgreSQL is skipped"))
struct PostgreSQLFaultTests {
    /// The server ends every connection to the catalogue again and again, as restarts would,
    /// until the import stops. A connection ended while it stood idle is made again and the
    /// import goes on (`PostgresConnection.reconnectIfDropped`); one ended in the middle of a
    /// batch ends the import with one line, that batch rolled back. Either way only whole
    /// batches are stored, and the same command run again does the rest.
    @Test func aServerThatGoesAwayMidImportKeepsWholeBatchesAndTheImportGoesOnWhenRunAgain() throws {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase("fault")
        let database = String(url.split(separator: "/").last!)
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(400, width: 400, height: 300, firstSeed: 1)
        let errors = folder.path("import.err")
        #expect(FileManager.default.createFile(atPath: errors, contents: nil))
        let import1 = Process()
        import1.executableURL = WardrobeProcess.executable
        import1.arguments = ["import", "--jobs", "1", "--db", url, folder.path("photos")]
        import1.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        import1.standardOutput = FileHandle.nullDevice
        import1.standardError = FileHandle(forWritingAtPath: errors)
        try import1.run()
        func count(_ table: String) throws -> Int {
            Int(try postgres.psql(database, "SELECT count(*) FROM \(table)").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let deadline = Date().addingTimeInterval(60)
        while import1.isRunning, Date() < deadline, (try? count("images")) ?? 0 == 0 { usleep(20_000) }
        var endings = 0
        while import1.isRunning, Date() < deadline {
            try postgres.psql(database, """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()
                """)
            endings += 1
        }
        import1.waitUntilExit()
        #expect(endings > 0)
        let said = try String(contentsOfFile: errors, encoding: .utf8)
        if import1.terminationStatus == 0 {
            #expect(said.isEmpty, "\(said)")
            #expect(try count("images") == 400)
        } else {
            #expect(import1.terminationStatus == 1, "\(said)")
            #expect(said.split(separator: "\n").count == 1 && said.contains("postgresql://postgres@"), "\(said)")
        }
        // Whole batches only: every stored image has its path and its classification.
        let images = try count("images")
        #expect(images > 0)
        #expect(try count("image_paths") == images && count("classifications") == images)
        // The same command again does the rest.
        let again = try WardrobeProcess.run(["import", "--jobs", "1", "--db", url, folder.path("photos")])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try count("images") == 400 && count("classifications") == 400)
    }

    /// The server ends serve's connections and takes no new ones for a while (stopped,
    /// restarting): every page was a 500, "a reason on the server's side", as if serve had
    /// failed. It is 503, the catalogue's server cannot be reached now, and once the server
    /// takes connections again the same pages are served, without serve being started again.
    @Test func serveAnswers503WhileItsServerCannotBeReachedAndGoesOnWhenItIsBack() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "gone")
        defer { folder.remove() }
        let serve = try ServeProcess(db: url)
        defer { serve.stop() }
        let pages = ["/", "/image/1", "/stats", "/review"]
        for page in pages { #expect(throws: Never.self, "\(page)") { try KeepAliveHTTP(port: serve.port).get(page) } }

        try postgres.psql("postgres", "ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
        try postgres.psql("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'")
        for page in pages {
            let (head, body) = try KeepAliveHTTP(port: serve.port).answer(page)
            #expect(head.hasPrefix("HTTP/1.1 503"), "\(page): \(head)")
            #expect(body.contains("Unavailable: the catalogue&#39;s PostgreSQL server cannot be reached now."), "\(page): \(body)")
            #expect(!body.contains(database), "\(page): the page names the database: \(body)")
        }
        try postgres.psql("postgres", "ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
        for page in pages { #expect(throws: Never.self, "\(page)") { try KeepAliveHTTP(port: serve.port).get(page) } }
        #expect(serve.isRunning)
    }
}

/// Two small photos imported into a new database of the shared test server: the catalogue
/// the tests of a server's faults and rights start from.
enum TwoPhotos {
    static func imported(into name: String) throws
        -> (postgres: TestPostgres, url: String, database: String, folder: PhotoFolder) {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase(name)
        let folder = try PhotoFolder()
        try folder.writePhotos(2, width: 64, height: 48, firstSeed: 1)
        let imported = try WardrobeProcess.run(["import", "--quiet", "--db", url, folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        return (postgres, url, String(url.split(separator: "/").last!), folder)
    }
}
