import CatalogueFixtures
import Foundation
import Testing

/// A catalogue on read-only media (a mounted backup): WAL mode needs a -shm file that
/// cannot be made there, which once made every reading command fail with "unable to
/// open database file". Reading commands work; writing ones say nothing can be written.
@Suite(.serialized) struct ReadOnlyMediaTests {
    @Test func readingCommandsWorkAndWritingOnesSaySo() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        // As root (whom permissions do not stop): a tmpfs remounted read-only.
        // Otherwise: a folder without write permission.
        let disk = SmallDisk(megabytes: 8)
        let media = disk?.path ?? folder.path("media")
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let db = media + "/c.sqlite"
        try HostileCatalogue.make(at: db, count: 12, modelName: "clothing")
        #expect(!FileManager.default.fileExists(atPath: db + "-shm"), "closed cleanly: no -shm left")
        if let disk {
            try #require(mount("tmpfs", disk.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0, "remount read-only")
        } else {
            chmod(media, 0o555)
        }
        defer { chmod(media, 0o755) }
        for command in [["stats"], ["list"], ["list", "--csv"], ["export", "--all"], ["show", "1"], ["history", "1"]] {
            let result = try WardrobeProcess.run(command + ["--db", db])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(command)")
        }
        try FileManager.default.createDirectory(atPath: folder.path("photos"), withIntermediateDirectories: true)
        let write = try WardrobeProcess.run(["import", "--db", db, folder.path("photos")])
        #expect(write.status == 1, "\(write.stderr)")
        #expect(write.stderr.contains("nothing can be written there"), "\(write.stderr)")
        // serve, which writes a person's labels, is refused; the line said nothing of serving
        // the pages read-only, which works.
        let serve = try WardrobeProcess.run(["serve", "--port", "0", "--db", db])
        #expect(serve.status == 1 && serve.stderr.contains("and serve --read-only still read it"), "\(serve.stderr)")
        let readOnly = try ServeProcess(db: db)
        defer { readOnly.stop() }
        #expect(throws: Never.self) { try KeepAliveHTTP(port: readOnly.port).get("/stats") }
    }
}
