import Catalogue
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `wardrobe serve &` in a script starts with SIGINT ignored, so Ctrl-C at the terminal is for
/// the command in the foreground. The server blocked SIGINT to take it with `sigwait`, and a
/// blocked signal is queued rather than dropped even when ignored, so it stopped anyway.
@Suite struct IgnoredSignalServeTests {
    @Test func aServerStartedWithCtrlCIgnoredGoesOnUntilSIGTERM() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        _ = try Catalogue(path: db)
        let server = try ShellStartedCommand(["serve", "--db", db, "--port", "0", "--read-only"],
                                             ignoring: [SIGINT], readOutput: true)
        let port = try ServeProcess.port(from: try #require(server.stdout))

        server.send(SIGINT)
        // Long enough for a server that took the signal to have stopped listening.
        usleep(500_000)
        let page = try KeepAliveHTTP(port: port).get("/stats")
        #expect(page.contains("0 images"), "still serving after the ignored Ctrl-C: \(page)")

        server.send(SIGTERM)
        let ending = server.wait()
        #expect(ending.status == 0, "SIGTERM, not ignored, stops it cleanly: \(ending)")
    }
}
