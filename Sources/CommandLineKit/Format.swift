import Files
import Foundation

/// Formats for numbers shown to people.
public enum Format {
    /// `text` with every control character made visible (see `VisibleText.escaped`).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        VisibleText.escaped(text, keepingNewlines: keepingNewlines)
    }

    /// The longest message line shown whole: room for two paths of the longest the system
    /// takes (4,096 bytes) and the words around them.
    public static let longestMessage = 10_000

    /// `text`, or when it is longer than `longestMessage` characters its start and end
    /// around a count of what was left out: an error that quotes its input (a 20 MB line of
    /// `label -`'s stdin) stays a line a person can read.
    public static func bounded(_ text: String) -> String {
        let count = text.count
        guard count > longestMessage else { return text }
        let head = 8_000, tail = 1_000
        return "\(text.prefix(head))…(\(count - head - tail) characters left out)…\(text.suffix(tail))"
    }

    public static func percent(_ value: Float) -> String { String(format: "%.1f%%", Double(value) * 100) }
    public static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    public static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return whole < 3600 ? String(format: "%d:%02d", whole / 60, whole % 60)
            : String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    /// A count as people read one, its digits in threes: `20,000`.
    public static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    public static func rate(_ perSecond: Double) -> String { String(format: "%.1f", perSecond) }

    /// A report's counts, a row each, as the commands that measure or check print them: the
    /// name indented, its count right-aligned, then what it counts.
    public static func counts(_ rows: [(name: String, count: Int, meaning: String)]) -> String {
        table(rows.map { ["  " + $0.name, String($0.count), $0.meaning] }, rightAligned: [1])
    }

    /// Left-aligned columns separated by two spaces. Cells are escaped (`escaped`):
    /// a name holding a newline stays on its row. Widths are terminal columns
    /// (`columns`), so a cell in Chinese or with an emoji, two columns a character,
    /// keeps the cells after it in line.
    /// With `width` (a terminal's columns), the `dropping` columns are left out, in
    /// that order (the least telling first), while the table is wider; then the
    /// `shrinking` column's cells are shortened in the middle (`/home/me/Pic…/coat.jpg`)
    /// until the table fits, down to 12 columns; the other columns are never cut.
    /// With `filling`, a last cell longer than the width leaves is filled onto more lines,
    /// each starting under the cell, broken between words (a fact's sentence, a model's record).
    public static func table(_ rows: [[String]], rightAligned: Set<Int> = [], width: Int? = nil,
                             shrinking shrinkable: Int? = nil, dropping: [Int] = [], filling: Bool = false) -> String {
        var rows = rows.map { $0.map { escaped($0) } }
        guard var cells = rows.map(\.count).max() else { return "" }
        func widthsOf(_ rows: [[String]]) -> [Int] {
            (0..<cells).map { column in rows.map { column < $0.count ? columns($0[column]) : 0 }.max() ?? 0 }
        }
        var widths = widthsOf(rows)
        var rightAligned = rightAligned, shrinkable = shrinkable
        if let width {
            // Each dropped column moves the ones after it left, the later drops among them.
            var dropping = dropping.filter { $0 < cells }
            while let column = dropping.first, widths.reduce(0, +) + 2 * (cells - 1) > width {
                dropping.removeFirst()
                rows = rows.map { row in column < row.count ? Array(row[..<column] + row[(column + 1)...]) : row }
                func shifted(_ index: Int) -> Int { index > column ? index - 1 : index }
                dropping = dropping.map(shifted)
                rightAligned = Set(rightAligned.filter { $0 != column }.map(shifted))
                shrinkable = shrinkable.flatMap { $0 == column ? nil : shifted($0) }
                cells -= 1
                widths = widthsOf(rows)
            }
        }
        let total = widths.reduce(0, +) + 2 * (cells - 1)
        if let width, let shrinkable, shrinkable < cells, total > width {
            let fitted = max(12, widths[shrinkable] - (total - width))
            rows = rows.map { row in
                guard shrinkable < row.count else { return row }
                var row = row
                row[shrinkable] = shortenedInMiddle(row[shrinkable], to: fitted)
                return row
            }
            widths[shrinkable] = min(widths[shrinkable], fitted)
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: max(0, widths[column] - columns(cell)))
                if rightAligned.contains(column) { return pad + cell }
                guard column == row.count - 1 else { return cell + pad }
                let start = widths.prefix(column).reduce(0, +) + 2 * column
                guard filling, let width, start + columns(cell) > width else { return cell }
                return filled(cell, width: width, indent: start, firstLineUsed: start)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension Format {
    /// `text` cut to `width` terminal columns by taking out its middle, where a path
    /// holds the least telling part: the start (which folder) and the end (which file) stay.
    /// A character two columns wide that does not fit whole is left out with the middle,
    /// so the result may be a column short.
    public static func shortenedInMiddle(_ text: String, to width: Int) -> String {
        guard columns(text) > width, width >= 3 else { return text }
        let tail = (width - 1) / 2 + (width - 1) % 2
        let head = width - 1 - tail
        return prefix(text, columns: head) + "…" + suffix(text, columns: tail)
    }
}

extension String {
    public func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
