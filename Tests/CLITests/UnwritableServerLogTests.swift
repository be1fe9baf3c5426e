import Catalogue
import Foundation
import Imaging
import Testing

/// `wardrobe serve` writes a line to its stderr for each failure of its own (a 500), and
/// wrote it with Foundation's `FileHandle.write`, which traps when the write fails: a
/// server whose log was a file on a full disk, or a pipe whose reader had gone (`serve
/// 2>&1 | tee log`, tee stopped), died (SIGILL) at its first 500, every visitor's page with
/// it. The line is lost when it cannot be written; the server goes on.
@Suite struct UnwritableServerLogTests {
    /// Where the server's stderr goes: a full disk, and a pipe nobody reads.
    static func unwritable(_ kind: String) throws -> FileHandle {
        switch kind {
        case "full disk":
            return try #require(FileHandle(forWritingAtPath: "/dev/full"))
        default:
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            return pipe.fileHandleForWriting
        }
    }

    @Test(arguments: ["full disk", "pipe nobody reads"])
    func aServerWhoseLogCannotBeWrittenGoesOnAfterA500(log: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/0.png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        // A thumbnail another program replaced by text: its tensor cannot be drawn, a
        // failure of the server's own, which it logs.
        try Catalogue(path: db).database.execute("UPDATE images SET thumbnail = CAST('a note' AS BLOB) WHERE id = 1")
        let server = try ServeProcess(db: db, standardError: try Self.unwritable(log))
        defer { server.stop() }

        server.expectStatus(500, for: "/tensor/1.png")
        let stats = try KeepAliveHTTP(port: server.port).get("/stats")
        #expect(stats.contains("1 image"), "the next page is served: \(stats)")
        #expect(server.isRunning, "the server is still there after a log line it could not write")
    }
}
