#if canImport(Glibc)
import Glibc
#endif

/// `sockaddr_in` for an IPv4 address literal, nil for anything else (no name lookups).
func ipv4SocketAddress(_ host: String, port: Int) -> sockaddr_in? {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return inet_pton(AF_INET, host, &address.sin_addr) == 1 ? address : nil
}

/// `sockaddr_in6` for an IPv6 address literal (brackets allowed), nil for anything else.
func ipv6SocketAddress(_ host: String, port: Int) -> sockaddr_in6? {
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = in_port_t(UInt16(port).bigEndian)
    var literal = host
    if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
    return inet_pton(AF_INET6, literal, &address.sin6_addr) == 1 ? address : nil
}
