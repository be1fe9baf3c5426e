import Foundation
import Imaging
import Testing

/// The gallery's confidence filter with its bounds crossed (`?min=90&max=10`): the page made
/// a closed range of them, and Swift's `lowerBound <= upperBound` precondition stopped the
/// whole server, for every user, on one GET that any page the browser showed could send.
/// Run as its own process here, so that such a crash is the server's, not the test runner's.
@Suite struct CrossedBoundsServeTests {
    @Test func crossedConfidenceBoundsAreABadRequestAndTheServerGoesOn() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/0.png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--quiet", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")

        let server = try ServeProcess(db: db)
        defer { server.stop() }
        let port = server.port

        for target in ["/?min=90&max=10", "/?min=100&max=0", "/?label=Coat&min=51&max=50"] {
            server.expectStatus(400, for: target)
        }
        #expect(server.isRunning, "the server is still there")
        #expect(try KeepAliveHTTP(port: port).get("/?min=0&max=100").contains("<li class=\"card\""), "and answers")
    }
}
