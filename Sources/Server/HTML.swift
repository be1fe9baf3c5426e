/// A piece of HTML. Written as a string literal, with every interpolated
/// `String` (or number) escaped for HTML text and double-quoted attribute
/// values alike, and every interpolated `HTML` kept as it is: a catalogue
/// string can only enter a page escaped. URLs are built by `Link`, whose
/// parts are percent-encoded, and then escaped again as attribute text.
public struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var text: String

    public init(stringLiteral value: String) { text = value }

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

        public mutating func appendLiteral(_ literal: String) { text += literal }

        public mutating func appendInterpolation(_ value: String) { text += HTML.escape(value) }

        public mutating func appendInterpolation(_ value: String?) { text += HTML.escape(value ?? "") }

        public mutating func appendInterpolation(_ value: Int) { text += String(value) }

        public mutating func appendInterpolation(_ value: Int64) { text += String(value) }

        public mutating func appendInterpolation(_ value: HTML) { text += value.text }

        public mutating func appendInterpolation(_ values: [HTML]) { text += values.map(\.text).joined() }

        public mutating func appendInterpolation(_ link: Link) { text += HTML.escape(link.url) }
    }

    /// Escapes the five characters that matter in HTML text and in quoted
    /// attribute values.
    public static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
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

    /// Percent-encodes all but RFC 3986's unreserved characters.
    public static func encode(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    public static func == (left: Link, right: Link) -> Bool { left.url == right.url }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
