import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LoopbackSocket

/// A test client that writes requests byte for byte (any Host, any path,
/// `..` left as it is), so the tests can send what a browser never would.
/// It reads the answer up to the end of the connection.
struct RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    let port: Int
    /// The client's address (another loopback address, 127.0.0.2), or the default.
    var source: String? = nil
    /// Seconds a read or write may wait before the exchange fails, or no limit.
    var timeout: Int? = nil

    func get(_ target: String, host: String? = nil, headers: [String: String] = [:]) throws -> Response {
        try send("GET", target, host: host, headers: headers, body: nil)
    }

    /// A form POST; `origin` nil sends no Origin header.
    func post(_ target: String, form: [(String, String)], origin: String?, host: String? = nil,
              accept: String? = nil) throws -> Response {
        let body = form.map { "\(encode($0))=\(encode($1))" }.joined(separator: "&")
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if let accept { headers["Accept"] = accept }
        if let origin { headers["Origin"] = origin }
        return try send("POST", target, host: host, headers: headers, body: Array(body.utf8))
    }

    var ownOrigin: String { "http://127.0.0.1:\(port)" }

    /// Writes `partial` and then nothing; true if the server closed the
    /// connection within `seconds`, false if it was still open then.
    func stall(_ partial: String, seconds: Int) throws -> Bool {
        let socket = try connected()
        defer { close(socket) }
        _ = Array(partial.utf8).withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func connected() throws -> Int32 {
        guard let socket = LoopbackSocket.connect(port: port, from: source) else {
            throw RawHTTPError("cannot connect to port \(port)")
        }
        if let timeout {
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        return socket
    }

    func send(_ method: String, _ target: String, host: String?, headers: [String: String], body: [UInt8]?) throws -> Response {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        return try exchange(Array(request.utf8) + (body ?? []))
    }

    /// Writes `bytes` as they are (a NUL, a header twice) and reads the answer to the end.
    func exchange(_ bytes: [UInt8]) throws -> Response {
        try RawHTTP.parse(try exchangeRaw(bytes))
    }

    /// Writes `bytes` and returns every byte read until the server closes the connection.
    func exchangeRaw(_ bytes: [UInt8]) throws -> [UInt8] {
        let socket = try connected()
        defer { close(socket) }
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            guard written > 0 else { break }  // the server may close early (413)
            sent += written
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// Status line, headers (lowercased names), and what follows the blank line.
    static func parse(_ bytes: [UInt8]) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw RawHTTPError("no complete response: \(String(decoding: bytes, as: UTF8.self))")
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPError("bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }

    private func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
