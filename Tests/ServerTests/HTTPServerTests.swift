import Foundation
import Server
import Testing

/// The HTTP layer on its own: stopping, caps, port 0.
@Suite struct HTTPServerTests {
    /// Answers slowly with a large body, so a stop can fall in the middle of it.
    struct SlowHandler: HTTPHandler {
        func respond(to request: HTTPRequest) -> HTTPResponse {
            usleep(400_000)
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")],
                                body: [UInt8](repeating: 7, count: 4_000_000))
        }
    }

    @Test func stopLetsTheRequestInFlightFinishWriting() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: SlowHandler())
        #expect(server.port > 0)
        let port = server.port
        let answer = Answer()
        let thread = Thread { answer.set(Result { try RawHTTP(port: port).get("/") }) }
        thread.start()
        // Wait until the request is being answered, then stop.
        let deadline = Date().addingTimeInterval(5)
        while server.requestsInFlight == 0, Date() < deadline { usleep(5_000) }
        #expect(server.requestsInFlight == 1)
        server.stop()
        let response = try answer.wait().get()
        #expect(response.status == 200)
        #expect(response.body.count == 4_000_000)
        #expect(response.header("connection") == "close")
        #expect(throws: (any Error).self) { try RawHTTP(port: port).get("/") }
    }

    /// Holds a request for /hold until released; answers any other at once.
    struct HoldingHandler: HTTPHandler {
        let release: DispatchSemaphore
        func respond(to request: HTTPRequest) -> HTTPResponse {
            if request.path == "/hold" { release.wait() }
            return .text("answered", status: 200)
        }
    }

    /// Stopping took the listening socket out of the library's hands (`MHD_quiesce_daemon`),
    /// which now and then ended the process; a client that came meanwhile also waited,
    /// unanswered, for as long as the requests in flight took. It is now closed at once.
    @Test func aConnectionOpenedWhileStoppingIsClosedAtOnce() throws {
        let release = DispatchSemaphore(value: 0)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: HoldingHandler(release: release))
        let port = server.port
        let held = Answer()
        Thread { held.set(Result { try RawHTTP(port: port).get("/hold") }) }.start()
        let deadline = Date().addingTimeInterval(10)
        while server.requestsInFlight == 0, Date() < deadline { usleep(5_000) }
        let stopped = DispatchSemaphore(value: 0)
        Thread { server.stop(); stopped.signal() }.start()
        // Answered until the stop begins; from then on closed unanswered.
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        var waited: Double?
        while waited == nil, Date() < deadline {
            let started = Date()
            let bytes = (try? RawHTTP(port: port, timeout: 4).exchangeRaw(request)) ?? []
            if bytes.isEmpty { waited = Date().timeIntervalSince(started) } else { usleep(5_000) }
        }
        release.signal()
        #expect(try held.wait().get().status == 200, "the request in flight is still answered")
        stopped.wait()
        let seconds = try #require(waited, "new connections were still answered 10 s after the stop began")
        #expect(seconds < 3, "a connection opened while stopping waited \(seconds) s unanswered")
    }

    @Test func headersBeyondTheMemoryCapAreRefused() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: .init(connectionMemory: 16 * 1024),
                                    handler: SlowHandler())
        defer { server.stop(grace: 0) }
        let response = try RawHTTP(port: server.port).get("/", headers: ["X-Padding": String(repeating: "a", count: 40_000)])
        #expect(response.status == 431 || response.status == 413)
    }

    @Test func aRequestThatStallsIsCutOffAfterTheIdleTime() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: .init(idleSeconds: 1), handler: SlowHandler())
        defer { server.stop(grace: 0) }
        let started = Date()
        // Half the headers, then silence: the server must close the connection itself.
        let closed = try RawHTTP(port: server.port).stall("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", seconds: 10)
        let waited = Date().timeIntervalSince(started)
        #expect(closed, "the connection was still open after 10 s")
        #expect(waited < 6, "the server held a stalled request for \(waited) s")
        #expect(server.requestsInFlight == 0)
    }

    @Test func aHostThatIsNotAnAddressIsRefused() {
        #expect(throws: ServerError.self) { try HTTPServer(host: "example.com", port: 0, handler: SlowHandler()) }
    }

    final class Answer: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: Result<RawHTTP.Response, any Error>?
        func set(_ value: Result<RawHTTP.Response, any Error>) { result = value; done.signal() }
        func wait() -> Result<RawHTTP.Response, any Error> { done.wait(); return result! }
    }
}
