/// One request as libmicrohttpd parsed it: the method, the path (already
/// percent-decoded by the library), the query's arguments, the headers the
/// site looks at, and a form body's fields.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    /// Header names in lowercase.
    public var headers: [String: String]
    /// Fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body.
    public var form: [String: String]
    /// True when the body was larger than the server accepts; its fields are then empty.
    public var bodyTooLarge: Bool

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                form: [String: String] = [:], bodyTooLarge: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.form = form
        self.bodyTooLarge = bodyTooLarge
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The headers the site reads; only these are copied out of the library.
    static let interestingHeaders = ["host", "origin", "if-none-match", "accept", "sec-fetch-site", "sec-fetch-mode",
                                     "sec-fetch-dest"]

    /// Headers that mean one thing, given once: a request that gives one twice (two Hosts, say,
    /// of which the library would pass the first) is refused, never guessed at.
    static let singleHeaders = ["host", "origin", "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", "content-type",
                                "content-length"]
}
