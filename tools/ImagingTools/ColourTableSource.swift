import Imaging

/// Sources/Imaging/ColourTableCells.swift, made from the references again.
enum ColourTableSource {
    static func text() -> String {
        let letters = Array(ColourTableCells.computedLetters())
        let lines = stride(from: 0, to: letters.count, by: 96).map { "        \"\(String(letters[$0..<min(letters.count, $0 + 96)]))\"," }
        return """
            /// The nearest reference colour of each of `ColourTable`'s 4,096 cells, one letter a cell
            /// (a is the first `ClothingColour`), red level major. Written by `imaging-tools colour-table`.
            public enum ColourTableCells {
                static let letters = [
            \(lines.joined(separator: "\n"))
                ].joined()
            }
            """
    }
}
