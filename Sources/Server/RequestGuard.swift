/// The checks every request passes before a page is made:
/// - Host must be a host and an optional port (else 400) naming the bound address or
///   `localhost` (else 421), so a page
///   on another site cannot reach this server through a DNS name it
///   re-points at 127.0.0.1 (DNS rebinding);
/// - a state change must be a POST that carries this process's token and an
///   Origin equal to the server's own (else 403), so another site cannot
///   make a visitor's browser submit a correction (CSRF);
/// - a request another site's page made is answered only when it is a visit to a page
///   (else 403), so another site cannot load thumbnails or tensors to probe the catalogue.
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

    /// `bytes` random bytes (32: a form's token) as hex, from the system's generator.
    public static func randomToken(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16).leftPadded(to: 2) }
            .joined()
    }

    /// nil when the Host header is acceptable, else the 400 (not a host and port) or 421 to send.
    public func checkHost(_ request: HTTPRequest) -> HTTPResponse? {
        guard let header = request.header("host") else {
            return .text("Misdirected request: no Host header.", status: 421)
        }
        guard let host = RequestGuard.hostName(header) else {
            return .text("Bad request: the Host header is not a host name or address with an optional port.", status: 400)
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

    /// The host part of a Host header, lowercase, without port or IPv6 brackets; nil when the
    /// header is anything but a name or address and an optional port of digits. Read loosely,
    /// `127.0.0.1:8080@evil.com` was taken for 127.0.0.1.
    static func hostName(_ header: String) -> String? {
        let value = header.lowercased()
        let host: Substring, port: Substring
        if value.hasPrefix("[") {
            guard let end = value.firstIndex(of: "]") else { return nil }
            host = value[value.index(after: value.startIndex)..<end]
            port = value[value.index(after: end)...]
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            let colon = value.firstIndex(of: ":") ?? value.endIndex
            host = value[..<colon]
            port = value[colon...]
            guard host.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                                   || $0 == "." || $0 == "-") }) else { return nil }
        }
        guard !host.isEmpty else { return nil }
        if !port.isEmpty {
            let digits = port.dropFirst()
            guard port.first == ":", (1...5).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }) else {
                return nil
            }
        }
        return String(host)
    }

    /// nil when the request may be answered, else the 403 to send: a request another site's
    /// page made (`Sec-Fetch-Site` other than `same-origin` or `none`; a page on another port
    /// of 127.0.0.1 is `same-site`) is answered only when it is a visit to a page (a link
    /// followed, `Sec-Fetch-Mode: navigate` to a document). Otherwise a page anywhere could
    /// load `/thumb/HASH` as an image and learn whether a photo is catalogued, and its size.
    /// Browsers that send no `Sec-Fetch-Site` are answered, as before; every response also
    /// carries `Cross-Origin-Resource-Policy: same-origin`, which such browsers may honour.
    public func checkFetchSite(_ request: HTTPRequest) -> HTTPResponse? {
        guard let site = request.header("sec-fetch-site")?.lowercased(), site != "same-origin", site != "none" else {
            return nil
        }
        if request.method == "GET" && request.header("sec-fetch-mode")?.lowercased() == "navigate"
            && request.header("sec-fetch-dest")?.lowercased() == "document" {
            return nil
        }
        return .text("Forbidden: another site's page asked for this (Sec-Fetch-Site: \(site)); "
                     + "only this server's own pages load it.", status: 403)
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
