/// A whole response: status, headers and body, handed to libmicrohttpd,
/// which copies it and writes it out.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public static func html(_ page: HTML, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8"),
                                               ("Cache-Control", "no-store")],
                     body: Array(page.text.utf8))
    }

    public static func text(_ message: String, status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"),
                                               ("Cache-Control", "no-store")],
                     body: Array((message + "\n").utf8))
    }

    public static func json(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                     body: bytes)
    }

    /// 303: after a form's POST, the browser GETs `location` (so a reload does not post again).
    public static func seeOther(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("Location", location), ("Cache-Control", "no-store")])
    }

    /// Headers every response carries: no scripts, styles or images from
    /// anywhere but this server, no framing, no content-type guessing, no
    /// loading by another site's page.
    static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
         + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        // Not no-referrer: with it, browsers send `Origin: null` on a same-origin POST.
        ("Referrer-Policy", "same-origin"),
        // No page of another site may embed a thumbnail, a tensor or a page of this one.
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]
}
