import Foundation
import Imaging
import LoopbackSocket
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `wardrobe serve` keeps the stats page's counts between requests; a label
/// given by another process must still show on the very next request.
@Suite struct ServeStatsFreshnessTests {
    @Test func aLabelFromAnotherProcessShowsOnTheNextStatsPage() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--quiet",
                                                folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")

        let server = try ServeProcess(db: db)
        defer { server.stop() }
        let port = server.port

        // One keep-alive connection: the same worker, whose counts are kept, answers every request.
        let client = try KeepAliveHTTP(port: port)
        let before = try client.get("/stats")
        #expect(before.contains("3 images, 3 classified, 0 labelled by a person (0 acts)"), "\(before)")
        #expect(try client.get("/stats") == before, "nothing changed, the same page")

        let labelled = try WardrobeProcess.run(["label", "none", "1", "--db", db])
        try #require(labelled.status == 0, "\(labelled.stderr)")
        let after = try client.get("/stats")
        #expect(after.contains("3 images, 3 classified, 1 labelled by a person (1 act)"), "\(after)")
        #expect(after.contains(">none</a></td><td>1</td>"), "the new label has its row, with one image")
    }
}

/// HTTP/1.1 GETs over one connection, read to each response's Content-Length.
final class KeepAliveHTTP {
    private let socket: Int32
    private let host: String
    private var buffered: [UInt8] = []

    init(port: Int) throws {
        host = "127.0.0.1:\(port)"
        guard let socket = LoopbackSocket.connect(port: port) else { throw KeepAliveError("cannot connect to \(host)") }
        self.socket = socket
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    /// The body of a 200 answer as text; anything else throws.
    func get(_ path: String) throws -> String {
        let (head, body) = try answer(path)
        guard head.hasPrefix("HTTP/1.1 200") else { throw KeepAliveError("\(path) answered \(head)") }
        return body
    }

    /// The head (status line and headers) and the body of the answer, whatever its status;
    /// `accept`, if given, is sent as the Accept header.
    func answer(_ path: String, accept: String? = nil) throws -> (head: String, body: String) {
        let acceptLine = accept.map { "Accept: \($0)\r\n" } ?? ""
        return try exchange(path, Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\(acceptLine)\r\n".utf8))
    }

    /// The answer to `form` (already encoded) posted to `path` as this server's own page posts it.
    func post(_ path: String, form: String) throws -> (head: String, body: String) {
        try exchange(path, Array(("POST \(path) HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\n"
                                  + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n"
                                  + form).utf8))
    }

    /// The answer to labelling image `id` as `label` through its page's form, with the form's token.
    func postLabel(_ label: String, image id: Int) throws -> (head: String, body: String) {
        let page = try get("/image/\(id)")
        guard let token = page.firstMatch(of: /name="token" value="([0-9a-f]+)"/).map({ String($0.1) }) else {
            throw KeepAliveError("/image/\(id) has no form token")
        }
        return try post("/label", form: "token=\(token)&id=\(id)&action=label&label=\(label)")
    }

    private func exchange(_ path: String, _ request: [UInt8]) throws -> (head: String, body: String) {
        guard request.withUnsafeBytes({ write(socket, $0.baseAddress, $0.count) }) == request.count else {
            throw KeepAliveError("cannot send the request for \(path)")
        }
        let end = Array("\r\n\r\n".utf8)
        while buffered.firstRange(of: end) == nil { try fill() }
        let headerEnd = buffered.firstRange(of: end)!.upperBound
        let head = String(decoding: buffered[..<headerEnd], as: UTF8.self)
        guard let length = head.firstMatch(of: /(?i)content-length:\s*(\d+)/).flatMap({ Int($0.1) }) else {
            throw KeepAliveError("no Content-Length in \(head)")
        }
        while buffered.count < headerEnd + length { try fill() }
        let body = String(decoding: buffered[headerEnd..<headerEnd + length], as: UTF8.self)
        buffered.removeFirst(headerEnd + length)
        return (head, body)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(socket, &chunk, chunk.count)
        guard count > 0 else { throw KeepAliveError("the server closed the connection") }
        buffered += chunk[..<count]
    }
}

struct KeepAliveError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
