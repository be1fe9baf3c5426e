/// The checks every request passes before a page is made:
/// - Host must name the bound address or `localhost` (else 421), so a page
///   on another site cannot reach this server through a DNS name it
///   re-points at 127.0.0.1 (DNS rebinding);
/// - a state change must be a POST that carries this process's token and an
///   Origin equal to the server's own (else 403), so another site cannot
///   make a visitor's browser submit a correction (CSRF).
public struct RequestGuard: Sendable {
    /// Host names accepted, lowercase: the bound address and `localhost`.
    let hosts: Set<String>
    /// True when bound to every interface: any IP address literal is accepted
    /// (it cannot be re-pointed), names other than `localhost` still are not.
    let anyAddress: Bool
    /// Embedded in every form; random per process.
    public let token: String

    public init(boundHost: String, token: String = RequestGuard.randomToken()) {
        let bare = RequestGuard.bareHost(boundHost)
        hosts = [bare, "localhost"]
        anyAddress = bare == "0.0.0.0" || bare == "::"
        self.token = token
    }

    /// 32 random bytes as hex, from the system's generator.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16).leftPadded(to: 2) }
            .joined()
    }

    /// nil when the Host header is acceptable, else the 421 to send.
    public func checkHost(_ request: HTTPRequest) -> HTTPResponse? {
        guard let host = request.header("host").map(RequestGuard.hostName) else {
            return .text("Misdirected request: no Host header.", status: 421)
        }
        if hosts.contains(host) || (anyAddress && RequestGuard.isAddressLiteral(host)) { return nil }
        return .text("Misdirected request: this server answers to \(hosts.sorted().joined(separator: " or ")), "
                     + "not to the host this request names.", status: 421)
    }

    /// nil when a state change may go ahead, else the 403 to send.
    public func checkStateChange(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "POST" else {
            return .text("Forbidden: changes are made by POST only.", status: 403)
        }
        guard let origin = request.header("origin"), let host = request.header("host"),
              origin.lowercased() == "http://" + host.lowercased() else {
            return .text("Forbidden: the request's Origin is not this server.", status: 403)
        }
        guard let sent = request.form["token"], RequestGuard.constantTimeEqual(sent, token) else {
            return .text("Forbidden: the form's token is missing or stale; reload the page.", status: 403)
        }
        return nil
    }

    /// The host part of a Host header, lowercase, without port or IPv6 brackets.
    static func hostName(_ header: String) -> String {
        let value = header.lowercased()
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<end])
        }
        if let colon = value.lastIndex(of: ":"), value.firstIndex(of: ":") == colon {
            return String(value[..<colon])
        }
        return value
    }

    static func bareHost(_ host: String) -> String {
        let value = host.lowercased()
        return value.hasPrefix("[") && value.hasSuffix("]") ? String(value.dropFirst().dropLast()) : value
    }

    static func isAddressLiteral(_ host: String) -> Bool {
        ipv4SocketAddress(host, port: 0) != nil || ipv6SocketAddress(host, port: 0) != nil
    }

    /// Compares without stopping at the first difference, so timing does not reveal the token.
    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
