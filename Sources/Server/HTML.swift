import Files

/// A piece of HTML: markup. Written as a string literal, whose interpolations
/// are markup (`HTML`, including a literal written inside one), numbers, links
/// (`Link`, whose parts are percent-encoded and then escaped as attribute
/// text) and text, which must say so: `\(text: name)` escapes a `String` for
/// HTML text and double-quoted attribute values alike. Markup and text are
/// different types, so neither can be passed where the other belongs: a
/// `String` interpolated bare does not compile (it was escaped, so a class
/// held in one reached the page as `class=&quot;primary&quot;`), and `HTML`
/// cannot be given as text. A catalogue string can only enter a page escaped.
public struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var text: String

    /// Only a literal written in the source: a `String` made at run time cannot become markup.
    public init(stringLiteral value: StaticString) { text = value.description }

    public init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    public init(joining pieces: [HTML], separator: HTML = "") {
        text = pieces.map(\.text).joined(separator: separator.text)
    }

    public var description: String { text }

    public static func + (left: HTML, right: HTML) -> HTML {
        var joined = left
        joined.text += right.text
        return joined
    }

    public static func += (left: inout HTML, right: HTML) { left.text += right.text }

    public struct Interpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        public mutating func appendLiteral(_ literal: StaticString) { text += literal.description }

        /// Text, escaped: the one way a `String` enters markup.
        public mutating func appendInterpolation(text value: String) { text += HTML.text(value) }

        /// Text, escaped; nil is nothing.
        public mutating func appendInterpolation(text value: String?) { text += HTML.text(value ?? "") }

        public mutating func appendInterpolation(_ value: Int) { text += String(value) }

        public mutating func appendInterpolation(_ value: Int64) { text += String(value) }

        public mutating func appendInterpolation(_ value: HTML) { text += value.text }

        public mutating func appendInterpolation(_ values: [HTML]) { text += values.map(\.text).joined() }

        public mutating func appendInterpolation(_ link: Link) { text += HTML.escape(link.url) }
    }

    /// A catalogue string as a page shows it: its control characters and Unicode
    /// direction overrides made visible as the terminal shows them (`VisibleText`:
    /// `\n`, `\e`, `\u{202E}`), then escaped for HTML. Raw, a right-to-left override
    /// drew `evil<U+202E>gpj.exe` as `evilexe.jpg`, and a line break showed as a space,
    /// so a name with one looked like another's.
    public static func text(_ value: String) -> String { escape(VisibleText.escaped(value)) }

    /// Escapes the five characters that matter in HTML text and in quoted
    /// attribute values. They are ASCII, which never occurs inside a UTF-8
    /// multi-byte sequence, so the work is done on bytes; most strings
    /// (labels, numbers, hashes, file names) hold none and come back as
    /// they are. A gallery page escapes a few hundred strings.
    public static func escape(_ value: String) -> String {
        guard value.utf8.contains(where: HTML.needsEscape) else { return value }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(value.utf8.count + 32)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped += "&amp;".utf8
            case UInt8(ascii: "<"): escaped += "&lt;".utf8
            case UInt8(ascii: ">"): escaped += "&gt;".utf8
            case UInt8(ascii: "\""): escaped += "&quot;".utf8
            case UInt8(ascii: "'"): escaped += "&#39;".utf8
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }
}

/// A same-site URL: a fixed path and query parameters, each percent-encoded
/// so that no value can end its parameter or the URL.
public struct Link: Sendable, Equatable {
    public var path: String
    public var parameters: [(String, String)]

    public init(_ path: String, _ parameters: [(String, String?)] = []) {
        self.path = path
        self.parameters = parameters.compactMap { name, value in value.map { (name, $0) } }
    }

    public var url: String {
        guard !parameters.isEmpty else { return path }
        return path + "?" + parameters.map { Link.encode($0) + "=" + Link.encode($1) }.joined(separator: "&")
    }

    /// Percent-encodes all but RFC 3986's unreserved characters (bytes of
    /// the UTF-8 form, so any string round-trips).
    public static func encode(_ value: String) -> String {
        guard !value.utf8.allSatisfy(Link.isUnreserved) else { return value }
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if Link.isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"): true
        default: false
        }
    }

    public static func == (left: Link, right: Link) -> Bool { left.url == right.url }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
