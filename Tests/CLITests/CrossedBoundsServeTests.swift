import Foundation
import Testing

/// The gallery's confidence filter with its bounds crossed (`?min=90&max=10`): the page made
/// a closed range of them, and Swift's `lowerBound <= upperBound` precondition stopped the
/// whole server, for every user, on one GET that any page the browser showed could send.
/// Run as its own process here, so that such a crash is the server's, not the test runner's.
@Suite struct CrossedBoundsServeTests {
    @Test func crossedConfidenceBoundsAreABadRequestAndTheServerGoesOn() throws {
        let (folder, server) = try ServeProcess.onOneImage()
        defer { server.stop(); folder.remove() }
        let port = server.port

        for target in ["/?min=90&max=10", "/?min=100&max=0", "/?label=Coat&min=51&max=50"] {
            server.expectStatus(400, for: target)
        }
        #expect(server.isRunning, "the server is still there")
        #expect(try KeepAliveHTTP(port: port).get("/?min=0&max=100").contains("<li class=\"card\""), "and answers")
    }
}
