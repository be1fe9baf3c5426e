import Foundation
import Testing

/// SQLite keeps files beside the catalogue (`-wal`, `-shm`, `-journal`), and opens or makes
/// them by name. Something else under such a name (a folder, a FIFO, a symbolic link to
/// nothing) made every command fail with "SQLite error 14: unable to open database file" or
/// "disk I/O error", "while executing `PRAGMA application_id`": the reason and the file to
/// look at were both missing. Each is now one line naming the file and what it is.
@Suite struct CompanionFileTests {
    @Test(arguments: [("-wal", "a directory"), ("-shm", "a FIFO"), ("-wal", "a symbolic link to nothing"),
                      ("-journal", "a directory")])
    func somethingElseWhereSQLiteKeepsItsFileIsNamed(suffix: String, kind: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (db, sample) = try folder.catalogueOfTheSample()
        try #require(!FileManager.default.fileExists(atPath: db + "-wal"), "closed cleanly, its log folded in")

        let obstacle = db + suffix
        switch kind {
        case "a directory": try FileManager.default.createDirectory(atPath: obstacle, withIntermediateDirectories: false)
        case "a FIFO": try #require(mkfifo(obstacle, 0o644) == 0)
        default: try FileManager.default.createSymbolicLink(atPath: obstacle, withDestinationPath: folder.path("gone"))
        }
        for command in [["list"], ["classify", sample]] {
            let result = try WardrobeProcess.run(command + ["--db", db])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr == "error: \(obstacle): SQLite keeps a file of the catalogue's there, and it is \(kind), "
                    + "where only a regular file or nothing may be; move it out of the way\n", "\(command)")
        }
        try FileManager.default.removeItem(atPath: obstacle)
        let listed = try WardrobeProcess.run(["list", "--db", db, "--ids"])
        #expect(listed.stdout == "1\n", "the catalogue as it was: \(listed.stderr)")
    }
}
