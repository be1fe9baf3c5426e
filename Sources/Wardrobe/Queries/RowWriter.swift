import Files
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The machine-readable formats `list` and `export` write.
public enum RowFormat: String, Sendable, CaseIterable {
    case csv
    case json
}

/// One value of a row.
public enum RowValue: Sendable, Equatable {
    case text(String?)
    case integer(Int64)
    case number(Double)
    case numbers([Float])
    case date(Date)
}

/// Writes rows as CSV (a header, then one line per row) or as one JSON
/// array of objects, a row at a time through a buffer, so a million rows
/// need no more memory than one. Keys are written in the order given.
///
/// CSV text cells are made safe to open in a spreadsheet and to print: one
/// that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (which a
/// spreadsheet would run as a formula) gets a leading `'` and is quoted, as
/// OWASP's guidance on CSV injection recommends; control characters are
/// written as visible escapes (`\e`, `\n`, `\x07`), the rule `Format.escaped`
/// applies to everything shown on a terminal. Numbers stay numbers. JSON keeps
/// every string exactly, escaped as JSON requires and those characters as JSON
/// escapes (`JSONString`).
public final class RowWriter {
    public let format: RowFormat
    private let columns: [String]
    private let sink: ([UInt8]) throws -> Void
    private var buffer: [UInt8] = []
    private var rows = 0
    private static let flushSize = 1 << 16

    /// `sink` receives the output in chunks of about 64 KB.
    /// When `sink` throws, the write that called it throws the same error.
    public init(format: RowFormat, columns: [String], sink: @escaping ([UInt8]) throws -> Void) {
        self.format = format
        self.columns = columns
        self.sink = sink
        buffer.reserveCapacity(RowWriter.flushSize + 4096)
        switch format {
        case .csv: append(columns.map(RowWriter.csvField).joined(separator: ",") + "\n")
        case .json: append("[")
        }
    }

    public func write(_ values: [RowValue]) throws {
        precondition(values.count == columns.count, "\(values.count) values for \(columns.count) columns")
        switch format {
        case .csv:
            append(values.map(RowWriter.csvText).joined(separator: ",") + "\n")
        case .json:
            var object = rows == 0 ? "\n  {" : ",\n  {"
            for (index, (column, value)) in zip(columns, values).enumerated() {
                if index > 0 { object += ", " }
                object += JSONString.quoted(column) + ": " + RowWriter.jsonText(value)
            }
            append(object + "}")
        }
        rows += 1
        if buffer.count >= RowWriter.flushSize { try flush() }
    }

    /// Ends the document and hands over what is left.
    public func finish() throws {
        if format == .json { append(rows == 0 ? "]\n" : "\n]\n") }
        try flush()
    }

    private func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: - Values

    static func csvText(_ value: RowValue) -> String {
        switch value {
        case .text(let text): return text.map(csvField) ?? ""
        case .integer(let number): return String(number)
        case .number(let number): return shortNumber(number)
        case .numbers(let numbers): return numbers.map { shortNumber($0) }.joined(separator: " ")
        case .date(let date): return isoDate(date)
        }
    }

    static func jsonText(_ value: RowValue) -> String {
        switch value {
        case .text(let text): return text.map { JSONString.quoted($0) } ?? "null"
        case .integer(let number): return String(number)
        case .number(let number): return number.isFinite ? shortNumber(number) : "null"
        case .numbers(let numbers):
            return "[" + numbers.map { $0.isFinite ? shortNumber($0) : "null" }.joined(separator: ", ") + "]"
        case .date(let date): return "\"" + isoDate(date) + "\""
        }
    }

    /// A text cell: neutralised when a spreadsheet would take it for a formula,
    /// control characters escaped, and quoted (quotes doubled) when it holds a
    /// comma or a quote (RFC 4180).
    static func csvField(_ text: String) -> String {
        let formula = text.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } ?? false
        let visible = formula ? "'" + VisibleText.escaped(text) : VisibleText.escaped(text)
        guard formula || visible.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") }) else {
            return visible
        }
        return "\"" + visible.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The shortest text that reads back as the same number, so a value
    /// copied from a listing works as a filter bound. A whole number is written
    /// without a point, except -0.0: as an integer it would read back as 0, and
    /// a logit of -0.0 is kept as the model gave it.
    static func shortNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 && !isNegativeZero(value) ? String(Int64(value)) : String(value)
    }

    static func shortNumber(_ value: Float) -> String {
        value == value.rounded() && abs(value) < 1e7 && !isNegativeZero(Double(value)) ? String(Int64(value)) : String(value)
    }

    private static func isNegativeZero(_ value: Double) -> Bool {
        value == 0 && value.sign == .minus
    }

    /// UTC, milliseconds: `2024-05-01T12:34:56.789Z`. By hand, because a
    /// formatter per row would dominate an export's time.
    public static func isoDate(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2)
            + "T" + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2)
            + "." + pad(Int32(milliseconds - milliseconds.floorDivided(by: 1000) * 1000), 3) + "Z"
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
