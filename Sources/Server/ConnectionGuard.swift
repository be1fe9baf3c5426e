import CMicroHTTPD
import CSocketSupport
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps slow clients from holding the server's connections, beside the library's own caps
/// (connections in all and per client address, idle time). libmicrohttpd's idle timeout
/// starts again with every byte, so a client that trickles a byte a second never times out,
/// and 300 such connections held all 256 slots (a normal client got 1 answer in 6). So:
///
/// 1. A request has one deadline for its headers and body together, counted from when the
///    connection opened or its last answer was sent: a connection still sending when it
///    passes is closed, unless bytes it sent are still waiting in its socket unread. Then the
///    server is the slow one (the connection's thread is answering another request), and
///    cutting it dropped requests queued behind a few slow pages.
/// 2. When every slot is held but a few kept spare (1 in 16), the connection that has sent
///    least for longest (fewest bytes a second since it opened, of those open a second or more
///    and not being answered) is closed, until the spare slots are free again: a new client
///    finds one (the library refuses a connection beyond the last slot before this class
///    hears of it).
///
/// Closing is `shutdown` of the connection's socket: the library then reads its end and
/// closes the connection on its own thread, as if the client had gone. The socket is only
/// shut down while its connection is recorded, that is before the library closes it.
final class ConnectionGuard: Sendable {
    private struct Connection {
        let socket: Int32
        let opened: Double
        /// When the request now awaited began: the connection's opening, or the last answer.
        var waitingSince: Double
        /// Between the request's last piece and its answer being sent: not to be cut off.
        var answering = false
        var closing = false
        /// Where the request line's target began in the library's buffer, and its length as a C string.
        var target: (address: Int, length: Int)?
    }

    private let connections = Mutex<[Int: Connection]>([:])
    private let requestSeconds: Double
    /// Connections held before the slowest is dropped: all the slots but the spare ones.
    private let held: Int
    private let stopped = Atomic<Bool>(false)
    private let watcherEnded = DispatchSemaphore(value: 0)
    /// How often the deadline is looked at.
    static let watchInterval: useconds_t = 200_000
    /// A connection younger than this is never the one dropped: it has had no time to send.
    static let grace = 1.0

    init(requestSeconds: Int, slots: Int) {
        self.requestSeconds = Double(requestSeconds)
        held = max(1, slots - max(1, slots / 16))
        let watcher = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                usleep(Self.watchInterval)
                watch()
            }
            watcherEnded.signal()
        }
        watcher.name = "connection deadlines"
        watcher.start()
    }

    /// Ends the watcher thread; called once, when the server stops.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        watcherEnded.wait()
    }

    func opened(_ connection: OpaquePointer) {
        let socket = wardrobe_mhd_connection_socket(connection)
        guard socket >= 0 else { return }
        let now = Self.now()
        connections.withLock { connections in
            connections[Self.key(connection)] = Connection(socket: socket, opened: now, waitingSince: now)
            dropSlowest(of: &connections, sparing: Self.key(connection), at: now)
        }
    }

    func closed(_ connection: OpaquePointer) {
        _ = connections.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    func targetRead(_ connection: OpaquePointer, at address: UnsafeRawPointer, length: Int) {
        connections.withLock { $0[Self.key(connection)]?.target = (Int(bitPattern: address), length) }
    }

    /// Whether the request line's target held a NUL byte, which ends it early as a C string:
    /// the library ends the target where the HTTP version begins (`version`, in the same
    /// buffer, after the space it overwrote), so a target read shorter than that holds a
    /// NUL, and `/\0x` would have been served as `/`.
    func targetHoldsNul(_ connection: OpaquePointer, versionAt version: UnsafeRawPointer?) -> Bool {
        guard let target = connections.withLock({ $0[Self.key(connection)]?.target }) else { return false }
        guard let version else { return true }
        return Int(bitPattern: version) != target.address + target.length + 1
    }

    /// The request is whole and about to be answered.
    func answering(_ connection: OpaquePointer) {
        connections.withLock { $0[Self.key(connection)]?.answering = true }
    }

    /// The answer was sent: the next request on the connection has its own deadline.
    func answered(_ connection: OpaquePointer) {
        let now = Self.now()
        connections.withLock { connections in
            connections[Self.key(connection)]?.answering = false
            connections[Self.key(connection)]?.waitingSince = now
        }
    }

    /// Closes the connections past their deadline (but those the server has not read yet), then
    /// the slowest while too many are held.
    private func watch() {
        let now = Self.now()
        connections.withLock { connections in
            for (key, connection) in connections
            where !connection.answering && !connection.closing && now - connection.waitingSince > requestSeconds
                && wardrobe_socket_bytes_unread(connection.socket) == 0 {
                close(key, in: &connections)
            }
            dropSlowest(of: &connections, sparing: nil, at: now)
        }
    }

    /// While more than `held` connections are open (and not already closing), closes the one
    /// that has sent fewest bytes a second since it opened, of those that may be dropped.
    private func dropSlowest(of connections: inout [Int: Connection], sparing newest: Int?, at now: Double) {
        var open = connections.values.filter { !$0.closing }.count
        guard open > held else { return }
        let rated = connections.filter { key, connection in
            key != newest && !connection.answering && !connection.closing && now - connection.opened >= Self.grace
        }.map { key, connection in
            (key: key, rate: Double(wardrobe_socket_bytes_received(connection.socket)) / (now - connection.opened),
             opened: connection.opened)
        }.sorted { ($0.rate, $0.opened) < ($1.rate, $1.opened) }
        for slowest in rated where open > held {
            close(slowest.key, in: &connections)
            open -= 1
        }
    }

    private func close(_ key: Int, in connections: inout [Int: Connection]) {
        guard let connection = connections[key] else { return }
        shutdown(connection.socket, Int32(SHUT_RDWR))
        connections[key]?.closing = true
    }

    private static func key(_ connection: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(connection)) }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
