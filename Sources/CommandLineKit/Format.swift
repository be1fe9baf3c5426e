import Foundation

/// Formats for numbers shown to people.
public enum Format {
    public static func percent(_ value: Float) -> String { String(format: "%.1f%%", Double(value) * 100) }
    public static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    public static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return whole < 3600 ? String(format: "%d:%02d", whole / 60, whole % 60)
            : String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    public static func rate(_ perSecond: Double) -> String { String(format: "%.1f", perSecond) }

    /// Left-aligned columns separated by two spaces.
    public static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                if rightAligned.contains(column) { return pad + cell }
                return column == row.count - 1 ? cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension String {
    public func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
