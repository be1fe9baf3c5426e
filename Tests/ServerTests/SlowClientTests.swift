import Foundation
import LoopbackSocket
import Server
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Clients that send a byte a second (slowloris) must not keep others waiting: 300 such
/// connections held all 256 of the library's slots, and a normal client got 1 answer in 6,
/// because the idle timeout starts again with every byte. Every loop here ends by itself
/// within a few seconds, and only 127.0.0.1 and 127.0.0.2 are used.
@Suite(.serialized) struct SlowClientTests {
    struct Quick: HTTPHandler {
        func respond(to request: HTTPRequest) -> HTTPResponse { .text("ok", status: 200) }
    }

    /// Connections from 127.0.0.1 that each send the start of a request and then one byte a
    /// second, never finishing it, until `stop`.
    final class Tricklers: @unchecked Sendable {
        private(set) var sockets: [Int32] = []
        private let stopped = DispatchSemaphore(value: 0)
        private let ended = DispatchSemaphore(value: 0)

        init(count: Int, port: Int) {
            let start = Array("GET /?slow HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ".utf8)
            for _ in 0..<count {
                guard let socket = LoopbackSocket.connect(port: port) else { continue }
                _ = start.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                sockets.append(socket)
            }
            let sockets = self.sockets
            Thread { [stopped, ended] in
                // A byte a second each, for at most 20 s; a socket the server closed fails quietly.
                for _ in 0..<20 {
                    if stopped.wait(timeout: .now() + 1) == .success { break }
                    for socket in sockets { _ = send(socket, "a", 1, Int32(MSG_NOSIGNAL)) }
                }
                ended.signal()
            }.start()
        }

        func stop() {
            stopped.signal()
            ended.wait()
            for socket in sockets { close(socket) }
        }
    }

    /// Asks `/` every 0.25 s for `seconds` from 127.0.0.2; the latency of each answer, or what failed.
    static func normalClient(port: Int, seconds: Double) -> (latencies: [Double], failures: [String]) {
        let client = RawHTTP(port: port, source: "127.0.0.2", timeout: 3)
        var latencies: [Double] = [], failures: [String] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let asked = Date()
            do {
                let response = try client.get("/")
                if response.status == 200 { latencies.append(Date().timeIntervalSince(asked)) }
                else { failures.append("status \(response.status)") }
            } catch {
                failures.append("\(error)")
            }
            usleep(250_000)
        }
        return (latencies, failures)
    }

    @Test func threeHundredSlowConnectionsKeepNoOtherClientWaiting() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: Quick())
        let tricklers = Tricklers(count: 300, port: server.port)
        defer { tricklers.stop() }
        usleep(500_000)
        let (latencies, failures) = Self.normalClient(port: server.port, seconds: 4)
        #expect(failures.isEmpty, "\(failures.count) of \(failures.count + latencies.count): \(failures.prefix(3))")
        #expect(latencies.count >= 10)
        #expect((latencies.max() ?? 99) < 1, "slowest answer \(latencies.max() ?? 0) s")
    }

    /// Slow connections from many addresses can fill every slot (each address under its
    /// cap): the slowest senders are then dropped so that a slot stays free.
    @Test func whenEverySlotIsHeldTheSlowestSenderMakesRoom() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: .init(connections: 16), handler: Quick())
        let tricklers = Tricklers(count: 16, port: server.port)
        defer { tricklers.stop() }
        usleep(1_500_000)
        let (latencies, failures) = Self.normalClient(port: server.port, seconds: 3)
        #expect(failures.isEmpty, "\(failures.count) of \(failures.count + latencies.count): \(failures.prefix(3))")
        #expect(latencies.count >= 8)
        #expect((latencies.max() ?? 99) < 1, "slowest answer \(latencies.max() ?? 0) s")
    }

    /// Headers and body have one deadline together, which a byte now and then does not move.
    @Test func aRequestThatTricklesIsClosedAtItsDeadline() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: .init(idleSeconds: 15, requestSeconds: 2),
                                    handler: Quick())
        let socket = try #require(LoopbackSocket.connect(port: server.port))
        defer { close(socket) }
        let opened = Date()
        _ = Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n".utf8).withUnsafeBytes {
            send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        var closedAfter: Double?
        // A byte every 0.2 s for at most 6 s, each well within the idle time.
        for _ in 0..<30 where closedAfter == nil {
            if send(socket, "a", 1, Int32(MSG_NOSIGNAL)) < 0 { closedAfter = Date().timeIntervalSince(opened); break }
            var look = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&look, 1, 200) > 0 {
                var byte: UInt8 = 0
                if recv(socket, &byte, 1, 0) <= 0 { closedAfter = Date().timeIntervalSince(opened) }
            }
        }
        let after = try #require(closedAfter, "still open after 6 s of trickling")
        #expect(after > 1.5 && after < 3.5, "closed after \(after) s")
        // A request sent at once is still answered.
        #expect(try RawHTTP(port: server.port, timeout: 3).get("/").status == 200)
    }

    /// Answers `/hold` only once the gate opens; anything else at once.
    struct Holding: HTTPHandler {
        let gate: ServerLetGoTests.Gate
        func respond(to request: HTTPRequest) -> HTTPResponse {
            if request.path == "/hold" {
                gate.entered.signal()
                gate.open.wait()
            }
            return .text("ok", status: 200)
        }
    }

    /// A request sent whole while its connection's thread answers another one waits in its
    /// socket unread: the server is slow, not the client, and the request is answered once
    /// the thread is free. It was closed at the deadline, so a few slow pages (large views)
    /// dropped the requests queued behind them.
    @Test func aRequestWaitingForABusyThreadIsAnsweredPastTheDeadline() throws {
        let gate = ServerLetGoTests.Gate()
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: .init(threads: 1, requestSeconds: 1),
                                    handler: Holding(gate: gate))
        // Opened first, so the one thread has taken it before that thread is held.
        let queued = try #require(LoopbackSocket.connect(port: server.port))
        defer { close(queued) }
        usleep(300_000)
        let answers = Answers(count: 1)
        Thread { answers.set(0, Result { try RawHTTP(port: server.port, timeout: 10).get("/hold") }) }.start()
        try #require(gate.entered.wait(timeout: .now() + 10) == .success, "the first request never reached the handler")
        _ = Array("GET /queued HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8).withUnsafeBytes {
            send(queued, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        // Past the queued request's deadline, twice over, before the thread is free.
        Thread.sleep(forTimeInterval: 2.5)
        gate.open.signal()
        #expect(try answers.wait(seconds: 10)[0].get().status == 200)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(queued, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = recv(queued, &buffer, buffer.count, 0), count > 0 { received += buffer[0..<count] }
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "the queued request was cut off")
    }
}
