import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// `forget` overwrites the removed thumbnails in the catalogue file by a checkpoint after its
/// commit. A reader holding the log back (its warning: the bytes go "at the next forget"), or a
/// forget killed between its commit and that checkpoint, left them in the file; and the next
/// forget, run again on the same images, stopped at 'not found' before any checkpoint, so the
/// bytes stayed until some later writer happened to close last.
@Suite struct UnfinishedForgetTests {
    @Test func forgetRunAgainOverwritesWhatTheLastOneLeftInTheFile() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        // Noise of their own: no piece of one thumbnail's data is another's.
        try folder.writePhotos(4, width: 320, height: 240, firstSeed: 11)
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        // A reader of this process, open throughout so that no close of the last connection
        // checkpoints behind the commands' backs. The files are read by another process: a
        // process that opens and closes the file itself drops the reader's locks (POSIX locks
        // belong to the process), and a command would then take itself for the last connection.
        let reader = try Catalogue(path: db)
        // Past the JPEG's headers, which every thumbnail of its size shares with the others'.
        let thumbnail = Array(try #require(try reader.thumbnail(of: ImageID(2))).dropFirst(1_024))
        func held(in file: String) throws -> Bool {
            let copy = folder.path("read-by-another-process")
            defer { try? FileManager.default.removeItem(atPath: copy) }
            let cp = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: [file, copy])
            cp.waitUntilExit()
            return FileManager.default.fileExists(atPath: copy) && FileBytes.contains(copy, thumbnail)
        }
        try reader.database.execute("BEGIN")
        #expect(try reader.database.scalarInt("SELECT count(*) FROM images") == 4)
        let forgot = try WardrobeProcess.run(["forget", "--db", db, "--yes", "2"])
        #expect(forgot.status == 0 && forgot.stderr.contains("at the next forget"), "\(forgot.stdout)\(forgot.stderr)")
        try reader.database.execute("COMMIT")
        #expect(try held(in: db), "held back by the reader: still in the file")

        let again = try WardrobeProcess.run(["forget", "--db", db, "--yes", "2"])
        #expect(again.status == 1 && again.stderr.contains("not found"), "\(again.stdout)\(again.stderr)")
        #expect(try !held(in: db), "the thumbnail's bytes stay in the catalogue file")
        #expect(try !held(in: db + "-wal"), "the thumbnail's bytes stay in the -wal")
        #expect(try reader.database.scalarInt("SELECT count(*) FROM images") == 3)
    }
}
