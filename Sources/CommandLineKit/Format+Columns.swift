#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CWideCharacters

extension Format {
    /// How many terminal columns `text` takes, as the C library's `wcwidth` counts
    /// each Unicode scalar in a UTF-8 locale: a CJK ideograph or an emoji takes two,
    /// a combining accent or a zero-width joiner none. Tables align on this, not on
    /// the count of characters, so a name in Chinese does not push its row's later
    /// cells out of line. A scalar the C library calls unprintable (one newer than
    /// its Unicode tables, a control character that was not escaped) counts one.
    /// The process's locale is left alone: the count uses its own UTF-8 locale.
    public static func columns(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return UTF8Columns.shared.columns(of: text.unicodeScalars)
    }

    /// `text` followed by spaces up to `width` columns (none when it is wider).
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }

    /// The longest start of `text` that takes at most `width` columns.
    public static func prefix(_ text: String, columns width: Int) -> String {
        var taken = 0
        var end = text.startIndex
        for character in text {
            taken += columns(String(character))
            guard taken <= width else { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    /// The longest end of `text` that takes at most `width` columns.
    public static func suffix(_ text: String, columns width: Int) -> String {
        var taken = 0
        var start = text.endIndex
        for character in text.reversed() {
            taken += columns(String(character))
            guard taken <= width else { break }
            start = text.index(before: start)
        }
        return String(text[start...])
    }
}

/// `wcwidth` under a UTF-8 locale of its own, made once and set only on the calling
/// thread for the count (`uselocale`), so nothing else in the process sees it.
private final class UTF8Columns: @unchecked Sendable {
    static let shared = UTF8Columns()

    /// The C library's UTF-8 locale; nil where it has none, and then a scalar
    /// outside ASCII counts one column, as characters were counted before.
    private let locale: locale_t?

    private init() {
        let names: [String] = ["C.UTF-8", "en_US.UTF-8"]
        locale = names.lazy.compactMap { newlocale(LC_CTYPE_MASK, $0, nil) }.first
    }

    func columns(of scalars: String.UnicodeScalarView) -> Int {
        guard let locale else { return scalars.count }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return scalars.reduce(0) { sum, scalar in
            let width = wcwidth(wchar_t(bitPattern: scalar.value))
            return sum + (width < 0 ? 1 : Int(width))
        }
    }
}
