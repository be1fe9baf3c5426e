import CSQLite
import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Whole batches or nothing: a writer killed at random moments, a reader in
/// another process, and a full disk.
@Suite(.serialized) struct CrashSafetyTests {
    /// The catalogue-bench executable, built beside this test binary.
    static func benchExecutable() throws -> URL {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = me.deletingLastPathComponent().appendingPathComponent("catalogue-bench")
        try #require(FileManager.default.isExecutableFile(atPath: candidate.path),
                     "catalogue-bench is not built beside \(me.path); run `swift build --build-tests` first")
        return candidate
    }

    static func startWriter(_ path: String, batch: Int) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = try benchExecutable()
        process.arguments = ["stress-write", "--db", path, "--batch", String(batch)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Kills the writer and returns the image count of its last reported commit.
    static func kill(_ writer: (Process, Pipe)) -> Int? {
        Foundation.kill(writer.0.processIdentifier, SIGKILL)
        writer.0.waitUntilExit()
        let text = String(decoding: writer.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").last.flatMap { Int($0.dropFirst("committed ".count)) }
    }

    /// What must hold after any crash.
    static func checkConsistent(_ catalogue: Catalogue, batch: Int) throws -> Int {
        let db = catalogue.database
        #expect(try catalogue.integrityCheck() == ["ok"])
        #expect(try db.rows("PRAGMA foreign_key_check") { $0.text(0) }.isEmpty)
        let images = Int(try db.scalarInt("SELECT count(*) FROM images") ?? -1)
        #expect(images % batch == 0, "a batch was stored in part: \(images) images")
        // Every image has its classification from an import run, and a current one.
        #expect(try db.scalarInt("""
            SELECT count(*) FROM images AS i WHERE NOT EXISTS (
                SELECT 1 FROM classifications AS c JOIN runs AS r ON r.id = c.run_id
                WHERE c.image_id = i.id AND r.command = 'import')
            """) == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM current_classifications") == Int64(images))
        #expect(try db.scalarInt("""
            SELECT count(*) FROM current_classifications AS c
            WHERE classification_id != (SELECT max(id) FROM classifications WHERE image_id = c.image_id)
            """) == 0)
        #expect(try db.scalarInt("""
            SELECT count(*) FROM label_counts AS k
            WHERE images != (SELECT count(*) FROM current_classifications WHERE effective_label = k.label)
            """) == 0)
        // A count never written has no row (a writer killed before its first commit wrote none).
        #expect(try db.scalarInt("SELECT amount FROM catalogue_counts WHERE counted = 'images'") ?? 0 == Int64(images))
        // No duplicates: one row per hash, per path, per (image, run).
        #expect(try db.scalarInt("SELECT count(DISTINCT sha256) FROM images") == Int64(images))
        #expect(try db.scalarInt("SELECT count(*) FROM image_paths") == Int64(images))
        #expect(try db.scalarInt("""
            SELECT count(*) FROM (SELECT 1 FROM classifications GROUP BY image_id, run_id HAVING count(*) > 1)
            """) == 0)
        return images
    }

    @Test func aWriterKilledAtRandomMomentsLeavesWholeBatches() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("crash.sqlite")
        let batch = 25
        var generator = SystemRandomNumberGenerator()
        var killedAfterCommits = 0
        var previous = 0
        for _ in 0..<30 {
            let writer = try Self.startWriter(path, batch: batch)
            usleep(UInt32.random(in: 20_000...300_000, using: &generator))
            let reported = Self.kill(writer)
            let catalogue = try Catalogue(path: path)
            let images = try Self.checkConsistent(catalogue, batch: batch)
            // Every commit the writer reported survived its death.
            if let reported {
                killedAfterCommits += 1
                #expect(images >= reported)
            }
            #expect(images >= previous)
            previous = images
        }
        #expect(killedAfterCommits >= 10, "the writer rarely got to commit; the test proved little")
        #expect(previous > 0)
    }

    @Test func aReaderInAnotherProcessSeesOnlyWholeCommits() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("snapshots.sqlite")
        let batch = 10
        _ = try Catalogue(path: path)  // migrated before the writer starts
        let writer = try Self.startWriter(path, batch: batch)
        defer { _ = Self.kill(writer) }
        let reader = try Catalogue(path: path, mode: .readOnly)
        var seen: Set<Int> = []
        var last = 0
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            let (images, current, imported, fromSecondStatement) = try reader.read {
                let db = reader.database
                let images = Int(try db.scalarInt("SELECT count(*) FROM images") ?? -1)
                let current = Int(try db.scalarInt("SELECT count(*) FROM current_classifications") ?? -1)
                let imported = Int(try db.scalarInt("""
                    SELECT count(*) FROM classifications AS c JOIN runs AS r ON r.id = c.run_id WHERE r.command = 'import'
                    """) ?? -1)
                usleep(2_000)  // the writer commits meanwhile; the snapshot must not move
                let again = Int(try db.scalarInt("SELECT count(*) FROM images") ?? -1)
                return (images, current, imported, again)
            }
            #expect(images % batch == 0 && current == images && imported == images && fromSecondStatement == images)
            #expect(images >= last)
            last = images
            seen.insert(images)
        }
        #expect(seen.count >= 3, "the writer made too little progress to show anything: \(seen.sorted())")
    }

    @Test func aFullDiskRollsTheBatchBackAndTheCatalogueStaysUsable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("full.sqlite"))
        let model = try catalogue.registerModel(Synthetic.model())
        let run = try catalogue.openRun(command: "import", model: model, recipe: Recipe(name: "fashion-mnist", version: 1))
        try catalogue.insertImages((0..<50).map { Synthetic.image($0) }, run: run)
        let pages = try #require(try catalogue.database.scalarInt("PRAGMA page_count"))
        try catalogue.database.executeScript("PRAGMA max_page_count = \(pages + 20)")

        let big = (50..<550).map { Synthetic.image($0, thumbnailBytes: 4_096) }
        do {
            try catalogue.insertImages(big, run: run)
            Issue.record("500 images with 4 KiB thumbnails fitted in 20 pages")
        } catch let error as CatalogueError {
            #expect(error.sqliteCode == SQLITE_FULL)
            #expect(error == .diskFull(path: directory.path("full.sqlite")), "\(error)")
            #expect(error.description.contains("the disk is full"), "\(error)")
            #expect(error.description.contains("full.sqlite"), "\(error)")
        }
        #expect(try Self.checkConsistent(catalogue, batch: 50) == 50)
        #expect(try catalogue.image(sha256: big[0].sha256) == nil)

        // Still usable: reads work, and with room again so do writes.
        #expect(try catalogue.countCurrentClassifications() == 50)
        try catalogue.database.executeScript("PRAGMA max_page_count = 1073741823")
        try catalogue.insertImages(big, run: run)
        #expect(try Self.checkConsistent(catalogue, batch: 50) == 550)
    }

    /// The error of the first of up to 20 tries of `attempt` that fails with one, nil if none
    /// does: what another process does to the files is seen only at some moments.
    static func firstFailure(_ attempt: () throws -> Void) -> CatalogueError? {
        for _ in 0..<20 {
            do { try attempt() } catch let error as CatalogueError { return error } catch { return nil }
        }
        return nil
    }

    /// The write-ahead log deleted while another process writes through it: that process keeps
    /// writing to the log it holds open, and the index in the -shm counts its frames, which the
    /// new empty log does not hold. Another process opening the catalogue was told "SQLite error
    /// 10 (extended 522): disk I/O error (No such file or directory) - while executing `PRAGMA
    /// application_id`"; it is told what became of the log, and nothing is written.
    @Test func aLogDeletedUnderAWriterIsSaidToBe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("cut.sqlite")
        let writer = try Self.startWriter(path, batch: 5)
        defer { _ = Self.kill(writer) }
        _ = writer.1.fileHandleForReading.availableData  // its first commit
        try FileManager.default.removeItem(atPath: path + "-wal")
        // The writer's log index counts no frame only between a checkpoint and its next commit.
        let failure = Self.firstFailure { _ = try CatalogueStorage.open(path, access: .readWrite).stats() }
        #expect(failure == .logCutShort(path: path))
        let line = failure?.description ?? ""
        #expect(line.contains("cut.sqlite-wal, the catalogue's write-ahead log, is shorter") && !line.contains("SQLite error"), "\(line)")
    }

    /// The -shm deleted while another process writes: a command opening the catalogue then
    /// made an index of its own and wrote into the log beside that process, which wrote over
    /// it (a label said "labelled 1 image" and was not there). It is refused, nothing is made
    /// beside the log, and every batch the writer committed is kept.
    @Test func aLogIndexDeletedUnderAWriterIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("index.sqlite")
        let writer = try Self.startWriter(path, batch: 5)
        _ = writer.1.fileHandleForReading.availableData  // its first commit
        try FileManager.default.removeItem(atPath: path + "-shm")
        #expect(throws: CatalogueError.logIndexDeleted(path: path, holder: writer.0.processIdentifier)) {
            _ = try CatalogueStorage.open(path, access: .readWrite)
        }
        let line = CatalogueError.logIndexDeleted(path: path, holder: writer.0.processIdentifier).description
        #expect(line.contains("index.sqlite-shm, the index of the catalogue's write-ahead log, was deleted while another process (pid "))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let committed = try #require(Self.kill(writer))
        #expect(try Self.checkConsistent(Catalogue(path: path), batch: 5) >= committed)
    }

    /// The -wal replaced (a copy moved over it, here a file of zeros longer than the writer's
    /// log will grow meanwhile, so no read of it comes up short) while another
    /// process writes: the first page read through it is no database page. Said as a damaged
    /// header ("recover ... or restore your last backup") of a catalogue `check` found whole;
    /// now said as the log replaced under another process, nothing written, and every batch
    /// the writer committed is kept.
    @Test func aLogReplacedUnderAWriterIsNotCalledADamagedHeader() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("copied.sqlite")
        let writer = try Self.startWriter(path, batch: 5)
        _ = writer.1.fileHandleForReading.availableData  // its first commit
        #expect(FileManager.default.createFile(atPath: path + ".copy", contents: nil))
        let copy = try #require(FileHandle(forWritingAtPath: path + ".copy"))
        try copy.truncate(atOffset: 1 << 30)
        try copy.close()
        #expect(rename(path + ".copy", path + "-wal") == 0)
        let failure = Self.firstFailure { _ = try CatalogueStorage.open(path, access: .readOnly).stats() }
        #expect(failure == .logPageUnreadable(path: path), "\(String(describing: failure))")
        _ = Self.kill(writer)
    }
}
