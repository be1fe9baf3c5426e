import Dispatch
import Foundation
import Server
import Testing

/// A server its owner lets go of while a request is being answered. The library's callbacks
/// took a reference to the server; the last one then went on the library's worker thread, whose
/// `deinit` asked the library to stop and so to wait for every worker, itself too, and the
/// library ended the whole process ("Failed to join a thread"): one full test run in three.
@Suite struct ServerLetGoTests {
    final class Gate: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let open = DispatchSemaphore(value: 0)
    }

    /// Answers only once the gate opens.
    struct WaitingHandler: HTTPHandler {
        let gate: Gate
        func respond(to request: HTTPRequest) -> HTTPResponse {
            gate.entered.signal()
            gate.open.wait()
            return HTTPResponse(status: 200, body: Array("answered".utf8))
        }
    }

    @Test func aServerLetGoOfDuringARequestStopsOnItsOwnersThread() throws {
        let gate = Gate()
        var server: HTTPServer? = try HTTPServer(host: "127.0.0.1", port: 0, handler: WaitingHandler(gate: gate))
        let port = server!.port
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? RawHTTP(port: port).get("/")
            finished.signal()
        }
        try #require(gate.entered.wait(timeout: .now() + 10) == .success, "the request never reached the handler")
        // The request is let through only after the owner has let go: stopping waits for it.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { gate.open.signal() }
        server = nil
        #expect(finished.wait(timeout: .now() + 10) == .success)
    }
}
