import CMicroHTTPD
import Files
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What answers requests: called on the server's worker threads, several at once.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The answer to a request the server refuses before the handler sees it (a query or
    /// form it cannot read exactly: 400), `message` one line. Plain text unless the
    /// handler says otherwise (a site answers a browser with a page).
    func refusal(status: Int, message: String, to request: HTTPRequest) -> HTTPResponse
}

extension HTTPHandler {
    public func refusal(status: Int, message: String, to request: HTTPRequest) -> HTTPResponse {
        .text(message, status: status)
    }
}

/// An HTTP server on GNU libmicrohttpd: the library reads and parses every
/// request (request line, headers, percent-decoding, form bodies) on its own
/// pool of worker threads; this class only turns its callbacks into
/// `HTTPRequest` and `HTTPResponse` values. Stopping lets every request in
/// flight finish writing its response before connections close.
public final class HTTPServer: @unchecked Sendable {
    /// Caps on what one client can make the server hold.
    public struct Limits: Sendable {
        /// Worker threads, each with its own connections (and the handler's read connection).
        public var threads: Int
        /// Connections held at once; when all are held, the slowest sender is dropped (`ConnectionGuard`).
        public var connections: Int
        /// Connections held at once from one client address; more are refused. Half the slots:
        /// one address never holds them all, and a hundred busy clients on this machine fit.
        public var connectionsPerAddress: Int
        /// A connection idle this long is closed.
        public var idleSeconds: Int
        /// A request's headers and body must have come this long after the connection opened
        /// or its last answer was sent, however steadily they trickle; else it is closed.
        public var requestSeconds: Int
        /// Per-connection memory, which bounds the request line and headers.
        public var connectionMemory: Int
        /// Largest request body accepted; a larger one gets 413.
        public var bodyBytes: Int

        public init(threads: Int = 4, connections: Int = 256, connectionsPerAddress: Int = 128, idleSeconds: Int = 15,
                    requestSeconds: Int = 10, connectionMemory: Int = 64 * 1024, bodyBytes: Int = 16 * 1024) {
            self.threads = threads
            self.connections = connections
            self.connectionsPerAddress = connectionsPerAddress
            self.idleSeconds = idleSeconds
            self.requestSeconds = requestSeconds
            self.connectionMemory = connectionMemory
            self.bodyBytes = bodyBytes
        }
    }

    public let host: String
    public private(set) var port: Int = 0
    let handler: any HTTPHandler
    let limits: Limits
    private var daemon: OpaquePointer?
    private let inFlight = Atomic<Int>(0)
    private let connectionGuard: ConnectionGuard
    private let stopping = Atomic<Bool>(false)

    /// Binds `host` (an IPv4 or IPv6 address) and `port` (0: a free one, see
    /// `port`) and starts serving at once.
    public init(host: String, port: Int, limits: Limits = Limits(), handler: any HTTPHandler) throws(ServerError) {
        self.host = host
        self.handler = handler
        self.limits = limits
        connectionGuard = ConnectionGuard(requestSeconds: limits.requestSeconds, slots: limits.connections)
        guard (0...65535).contains(port) else {
            connectionGuard.stop()
            throw .invalidArgument("port \(port) is not in 0...65535")
        }
        // libmicrohttpd is loaded here, not at every start of wardrobe (CMicroHTTPD).
        var problem: UnsafePointer<CChar>?
        guard wardrobe_load_libmicrohttpd(&problem) == 1 else {
            connectionGuard.stop()
            throw .cannotListen("cannot serve: \(problem.map { String(cString: $0) } ?? "cannot load libmicrohttpd")")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
        let started: OpaquePointer?
        if var address = ipv4SocketAddress(host, port: port) {
            started = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { start(flags, $0, context) }
            }
        } else if var address = ipv6SocketAddress(host, port: port) {
            flags |= MHD_USE_IPv6.rawValue
            started = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { start(flags, $0, context) }
            }
        } else {
            connectionGuard.stop()
            throw .invalidArgument("--host must be an IP address such as 127.0.0.1 or ::1, not '\(host)'")
        }
        guard let started else {
            connectionGuard.stop()
            throw .cannotListen("cannot listen on \(host) port \(port): \(String(cString: strerror(errno)))")
        }
        daemon = started
        self.port = Int(wardrobe_mhd_bound_port(started))
    }

    private func start(_ flags: UInt32, _ address: UnsafePointer<sockaddr>, _ context: UnsafeMutableRawPointer) -> OpaquePointer? {
        wardrobe_mhd_start(flags, address, UInt32(limits.threads), UInt32(limits.connections),
                           UInt32(limits.connectionsPerAddress), UInt32(limits.idleSeconds), limits.connectionMemory,
                           HTTPServer.acceptPolicy, context, HTTPServer.accessHandler, context, HTTPServer.requestCompleted, context,
                           HTTPServer.connectionChanged, context, HTTPServer.requestLineRead, context, HTTPServer.unescape)
    }

    /// Stops taking connections, waits (up to `grace` seconds) for the
    /// requests in flight to be answered, then closes everything.
    ///
    /// A connection that comes meanwhile is closed at once (`acceptPolicy`). Not
    /// `MHD_quiesce_daemon`: it takes the listening socket out of each worker's epoll set
    /// while the worker, woken by a client closing its connection, may be taking it out
    /// too; the loser's `epoll_ctl` fails and the library ends the process ("Failed to
    /// remove listen FD from epoll set"), so serve died of SIGABRT on SIGTERM now and then.
    public func stop(grace: Double = 10) {
        guard let daemon else { return }
        self.daemon = nil
        stopping.store(true, ordering: .sequentiallyConsistent)
        let deadline = Date().addingTimeInterval(grace)
        while inFlight.load(ordering: .sequentiallyConsistent) > 0, Date() < deadline {
            usleep(10_000)
        }
        MHD_stop_daemon(daemon)
        connectionGuard.stop()
    }

    deinit {
        stop(grace: 0)
        connectionGuard.stop()
    }

    /// Requests being read or answered now.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    // MARK: the library's callbacks

    /// What the library keeps for one request between calls of the access handler.
    private final class PendingRequest {
        var postProcessor: OpaquePointer?
        /// Each field's bytes as they arrive, decoded once the body is whole (a
        /// piece may end inside a character).
        var fields: [String: [UInt8]] = [:]
        var bodyBytes = 0
        var tooLarge = false
        /// A POST whose Content-Type is not a form's: its body cannot be read (the
        /// library makes a form parser only for the two types a form is sent as).
        var notAForm = false
        /// Why the body's fields cannot be trusted, or nil: a request that is
        /// not exactly what its sender wrote is refused, never guessed at.
        var unreadable: String?
        /// A NUL in the raw body, which would cut a field's name short (see `FormNulFinder`).
        var nulFinder = FormNulFinder(decodesPercent: false)

        /// The fields as text, or why they cannot be read: a field that is not UTF-8, or whose
        /// name or value holds a control character. Every field of these forms is a token, an
        /// id, an action, a label or a path on the site; none is free text, and a label read
        /// past its control characters (`Bag%01`, `B%1Bag`) would be taken as `Bag`.
        var decodedFields: Result<[String: String], FieldProblem> {
            var form: [String: String] = [:]
            for (name, bytes) in fields {
                guard let value = String(validating: bytes, as: UTF8.self) else {
                    return .failure(FieldProblem(reason: "a form field is not UTF-8 text"))
                }
                guard !VisibleText.holdsControl(name), !VisibleText.holdsControl(value) else {
                    return .failure(FieldProblem(reason: "a form field holds a control character"))
                }
                form[name] = value
            }
            return .success(form)
        }
        deinit { if let postProcessor { MHD_destroy_post_processor(postProcessor) } }
    }

    /// The server a callback of the library was given, without taking a reference to it. A
    /// callback that held one (`takeUnretainedValue`) could let go of the last reference, when
    /// its owner had let go of the server during the request: `deinit` then ran on the
    /// library's own worker thread, whose `MHD_stop_daemon` waits for every worker, itself
    /// too, and the library ended the process ("Failed to join a thread"). The server is
    /// alive while a callback runs: `deinit` stops the library, which waits for the callbacks
    /// under way, before anything of the server is released.
    private static func withServer<Result>(_ context: UnsafeMutableRawPointer,
                                           _ body: (HTTPServer) -> Result) -> Result {
        Unmanaged<HTTPServer>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
    }

    /// Whether a new connection is served: not once the server is stopping.
    private static let acceptPolicy: MHD_AcceptPolicyCallback = { context, _, _ in
        HTTPServer.withServer(context!) { $0.stopping.load(ordering: .sequentiallyConsistent) ? .NO : .YES }
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, version, upload, uploadSize, slot in
        HTTPServer.withServer(context!) { server in
            server.access(connection!, url: url.map { String(cString: $0) } ?? "/",
                          method: method.map { String(cString: $0) } ?? "GET", version: version,
                          upload: upload, uploadSize: uploadSize!, slot: slot!)
        }
    }

    /// The request line's target as it came, before the library decodes and splits it: its
    /// length as a C string, compared later with where the library found its end.
    private static let requestLineRead: wardrobe_mhd_uri_logger = { context, uri, connection in
        guard let context, let uri, let connection else { return nil }
        HTTPServer.withServer(context) { $0.connectionGuard.targetRead(connection, at: UnsafeRawPointer(uri), length: strlen(uri)) }
        return nil
    }

    /// The library's own decoding of `%HH` in the path and in the query's names and values,
    /// except where it would put a NUL byte into the text: that text is left as it came
    /// (`%00` and all). The path and the query reach this class as C strings, so a NUL
    /// would end them early: `/?sort=%00` read as `sort=` (the default order) where
    /// `sort=bogus` got 400, and `/image/1%00x` as `/image/1`. Left encoded, such a value
    /// is refused as any other value that means nothing here.
    private static let unescape: wardrobe_mhd_unescaper = { _, _, text in
        guard let text else { return 0 }
        let length = strlen(text)
        let original = Array(UnsafeBufferPointer(start: text, count: length + 1))
        let decoded = MHD_http_unescape(text)
        guard memchr(text, 0, decoded) != nil else { return decoded }
        text.update(from: original, count: length + 1)
        return length
    }

    private static let requestCompleted: MHD_RequestCompletedCallback = { context, connection, slot, _ in
        HTTPServer.withServer(context!) { server in
            if let connection { server.connectionGuard.answered(connection) }
            guard let slot, let pending = slot.pointee else { return }
            Unmanaged<PendingRequest>.fromOpaque(pending).release()
            slot.pointee = nil
            server.inFlight.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    private static let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, _, change in
        guard let context, let connection else { return }
        HTTPServer.withServer(context) { server in
            if change == .CONNECTION_NOTIFY_STARTED {
                server.connectionGuard.opened(connection)
            } else {
                server.connectionGuard.closed(connection)
            }
        }
    }

    /// Called first with the headers, then once per piece of body, then
    /// once more with no body left: only then is the request answered.
    private func access(_ connection: OpaquePointer, url: String, method: String, version: UnsafePointer<CChar>?,
                        upload: UnsafePointer<CChar>?,
                        uploadSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = slot.pointee else {
            let pending = PendingRequest()
            if method == "POST" {
                pending.postProcessor = MHD_create_post_processor(connection, 4096, HTTPServer.formField,
                                                                  Unmanaged.passUnretained(pending).toOpaque())
                pending.notAForm = pending.postProcessor == nil
                // The processor decodes `%HH` only in this encoding (compared as it compares it).
                let type = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Type").map { String(cString: $0) }
                pending.nulFinder = FormNulFinder(decodesPercent: type?.lowercased()
                    .hasPrefix("application/x-www-form-urlencoded") == true)
            }
            if connectionGuard.targetHoldsNul(connection, versionAt: version.map(UnsafeRawPointer.init)) {
                pending.unreadable = "the request's path holds a NUL byte"
            }
            slot.pointee = Unmanaged.passRetained(pending).toOpaque()
            inFlight.add(1, ordering: .sequentiallyConsistent)
            // A body declared larger than accepted is refused now, before it is sent: answered
            // in this first call, the library sends no `100 Continue` to a client that waits
            // for one (`Expect: 100-continue`), which then uploaded until the deadline.
            if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length")
                .flatMap({ Int(String(cString: $0)) }), declared > limits.bodyBytes {
                connectionGuard.answering(connection)
                return HTTPServer.queue(HTTPServer.tooLarge(limits), on: connection)
            }
            return .YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            pending.bodyBytes += uploadSize.pointee
            if pending.bodyBytes > limits.bodyBytes {
                pending.tooLarge = true
            } else if let processor = pending.postProcessor, let upload, pending.unreadable == nil {
                pending.nulFinder.scan(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee))
                if pending.nulFinder.found {
                    pending.unreadable = "a form field holds a NUL byte"
                } else if MHD_post_process(processor, upload, uploadSize.pointee) != .YES {
                    pending.unreadable = pending.unreadable ?? "the form body cannot be parsed"
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        connectionGuard.answering(connection)
        // The body is whole: the processor gives what it still holds (a last field's empty
        // value, a last key without one), so a field given twice that way is refused as any
        // field given twice is; `label=Coat&label` was taken as `label=Coat`. A body that
        // ends inside a field cannot be read exactly.
        if let processor = pending.postProcessor {
            pending.postProcessor = nil
            if MHD_destroy_post_processor(processor) != .YES, !pending.tooLarge {
                pending.unreadable = pending.unreadable ?? "the form body ends inside a field"
            }
        }
        var form: [String: String] = [:]
        if !pending.tooLarge && pending.unreadable == nil {
            switch pending.decodedFields {
            case .success(let decoded): form = decoded
            case .failure(let problem): pending.unreadable = problem.reason
            }
        }
        var request = HTTPRequest(method: method, path: url, form: form, bodyTooLarge: pending.tooLarge)
        switch HTTPServer.queryArguments(of: connection) {
        case .success(let arguments): request.query = arguments
        case .failure(let problem): pending.unreadable = pending.unreadable ?? problem.reason
        }
        if let repeated = HTTPServer.repeatedHeader(of: connection) {
            pending.unreadable = pending.unreadable ?? "the \(repeated) header is given more than once"
        }
        for name in HTTPRequest.interestingHeaders {
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
                request.headers[name] = String(cString: value)
            }
        }
        var response: HTTPResponse
        if request.bodyTooLarge {
            response = HTTPServer.tooLarge(limits)
        } else if let reason = pending.unreadable {
            response = handler.refusal(status: 400, message: "Bad request: \(reason).", to: request)
        } else if pending.notAForm {
            // Said as it is: read as an empty form, it was refused for a missing token.
            response = .text("Unsupported media type: a POST is a form, sent as application/x-www-form-urlencoded "
                             + "or multipart/form-data.", status: 415)
        } else if !["GET", "HEAD", "POST"].contains(method) {
            response = .text("Method not allowed.", status: 405)
            response.headers.append(("Allow", "GET, HEAD, POST"))
        } else {
            response = handler.respond(to: request)
        }
        if stopping.load(ordering: .relaxed) { response.headers.append(("Connection", "close")) }
        return HTTPServer.queue(response, on: connection)
    }

    private static func tooLarge(_ limits: Limits) -> HTTPResponse {
        .text("Request body too large (at most \(limits.bodyBytes) bytes).", status: 413)
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for header in HTTPResponse.securityHeaders + response.headers {
            _ = MHD_add_response_header(made, header.name, header.value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    /// The form body's fields arrive in pieces (`offset` into each value). A
    /// field given twice is refused: joined, `id=1&id=2` would name image 12.
    private static let formField: MHD_PostDataIterator = { context, _, key, _, _, _, data, offset, size in
        guard let context, let key else { return .YES }
        let pending = Unmanaged<PendingRequest>.fromOpaque(context).takeUnretainedValue()
        let name = String(cString: key)
        if offset == 0 && pending.fields[name] != nil {
            pending.unreadable = "a form field is given twice"
            return .NO
        }
        let piece = data.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
        pending.fields[name, default: []] += piece
        return .YES
    }

    struct FieldProblem: Error { let reason: String }

    /// Read as form fields are: each once, as UTF-8, or the request is refused (the first of
    /// `?id=1&id=2` would otherwise win silently, and a byte that is not UTF-8 would be replaced).
    private final class Collected { var values: [String: String] = [:]; var problem: String? }

    /// The first of `HTTPRequest.singleHeaders` the request gives more than once, or nil.
    private static func repeatedHeader(of connection: OpaquePointer) -> String? {
        let collected = Collected()
        let iterator: MHD_KeyValueIterator = { context, _, key, _ in
            guard let context, let key else { return .YES }
            let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: strlen(key)), as: UTF8.self).lowercased()
            guard HTTPRequest.singleHeaders.contains(name) else { return .YES }
            if collected.values[name] != nil {
                collected.problem = name
                return .NO
            }
            collected.values[name] = ""
            return .YES
        }
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, .HEADER_KIND, iterator, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.problem
    }

    private static func queryArguments(of connection: OpaquePointer) -> Result<[String: String], FieldProblem> {
        let collected = Collected()
        let iterator: MHD_KeyValueIterator = { context, _, key, value in
            guard let context, let key else { return .YES }
            let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            guard let name = String(validatingCString: key),
                  let text = value.map({ String(validatingCString: $0) }) ?? "" else {
                collected.problem = "a query argument is not UTF-8 text"
                return .NO
            }
            guard collected.values[name] == nil else {
                collected.problem = "a query argument is given twice"
                return .NO
            }
            collected.values[name] = text
            return .YES
        }
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, iterator,
                                          Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.problem.map { .failure(FieldProblem(reason: $0)) } ?? .success(collected.values)
    }
}
