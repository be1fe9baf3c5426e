import Foundation
import Wardrobe

extension Console {
    /// The setup every command uses: this process's environment and binary.
    var setup: WardrobeSetup {
        WardrobeSetup(environment: environment,
                      executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
    }

    /// One JSON document on stdout, keys sorted so output is stable.
    func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        output(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// Formats for numbers shown to people.
enum Format {
    static func percent(_ value: Float) -> String { String(format: "%.1f%%", Double(value) * 100) }
    static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return whole < 3600 ? String(format: "%d:%02d", whole / 60, whole % 60)
            : String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    static func rate(_ perSecond: Double) -> String { String(format: "%.1f", perSecond) }

    /// Left-aligned columns separated by two spaces.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
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
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
