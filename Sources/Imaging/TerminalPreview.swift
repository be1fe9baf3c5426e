/// How much colour a terminal can show.
public enum TerminalStyle: String, Sendable, CaseIterable {
    /// No escape codes: shading characters only (pipes, files, NO_COLOR).
    case plain
    /// The xterm 256-colour palette: its 24-step gray ramp and 6x6x6 colour cube.
    case ansi256
    /// 24-bit colour.
    case trueColor

    /// The style a program should use: plain off a terminal or under NO_COLOR, 24-bit where
    /// COLORTERM says so, the 256-colour palette otherwise.
    public static func detect(environment: [String: String], isTerminal: Bool) -> TerminalStyle {
        guard isTerminal, environment["NO_COLOR"].map(\.isEmpty) ?? true, environment["TERM"] != "dumb" else { return .plain }
        let colourTerm = environment["COLORTERM"]?.lowercased() ?? ""
        return colourTerm.contains("truecolor") || colourTerm.contains("24bit") ? .trueColor : .ansi256
    }
}

/// Pictures drawn with Unicode half blocks: each character cell shows two pixels, the upper
/// one as the foreground of "▀" and the lower one as the background, so pixels stay square.
public enum TerminalPreview {
    static let upperHalf = "\u{2580}"
    static let reset = "\u{1B}[0m"
    /// Shading for the plain style, from empty to full.
    static let shades: [Character] = [" ", "\u{2591}", "\u{2592}", "\u{2593}", "\u{2588}"]

    /// A 28x28 tensor (values 0...1, 1 drawn white as Fashion-MNIST shows garments) as 14 lines.
    public static func tensor(_ values: [Float], style: TerminalStyle) -> String {
        precondition(values.count == PreparedTensor.count, "a tensor has \(PreparedTensor.side)x\(PreparedTensor.side) values")
        let bytes = values.map { UInt8(max(0, min(255, ($0 * 255).rounded()))) }
        return render(Bitmap(width: PreparedTensor.side, height: PreparedTensor.side, channels: 1, pixels: bytes), style: style)
    }

    /// A thumbnail in colour, sized by `size(width:height:columns:)`, two pixel rows per line.
    public static func image(_ bitmap: Bitmap, columns: Int = 48, style: TerminalStyle) -> String {
        let size = size(width: bitmap.width, height: bitmap.height, columns: columns)
        return render(bitmap.resized(width: size.width, height: size.height), style: style)
    }

    /// The fewest pixels a preview has across either way: 4 columns, or 2 lines.
    static let minimumSide = 4

    /// The size in pixels (a column and half a line each) of the preview of a `width` x
    /// `height` picture: its aspect kept within `columns` columns and `columns * 3 / 4` lines
    /// (so a 3:4 portrait photo fills the width, and anything taller is fitted to that height),
    /// never enlarged, and never thinner than `minimumSide` either way. Fitted to the width
    /// alone, a 1x20000 picture was a one-column strip 128 lines tall.
    public static func size(width: Int, height: Int, columns: Int) -> (width: Int, height: Int) {
        let tallest = columns * 3 / 4 * 2
        let scale = min(1, Double(columns) / Double(width), Double(tallest) / Double(height))
        let fittedWidth = min(columns, max(minimumSide, Int((Double(width) * scale).rounded())))
        let fittedHeight = min(tallest, max(minimumSide, Int((Double(height) * scale).rounded())))
        // Whole lines: an odd last pixel row would be drawn twice.
        return (fittedWidth, fittedHeight + fittedHeight % 2)
    }

    static func render(_ bitmap: Bitmap, style: TerminalStyle) -> String {
        var lines = [String]()
        for row in stride(from: 0, to: bitmap.height, by: 2) {
            var line = ""
            for x in 0..<bitmap.width {
                let top = Array(bitmap[x, row])
                let bottom = row + 1 < bitmap.height ? Array(bitmap[x, row + 1]) : top
                switch style {
                case .plain:
                    let level = (Int(luma(top)) + Int(luma(bottom))) * (shades.count - 1) / 510
                    line.append(shades[level])
                case .ansi256:
                    line += "\u{1B}[38;5;\(palette256(top));48;5;\(palette256(bottom))m" + upperHalf
                case .trueColor:
                    let t = rgb(top), b = rgb(bottom)
                    line += "\u{1B}[38;2;\(t.0);\(t.1);\(t.2);48;2;\(b.0);\(b.1);\(b.2)m" + upperHalf
                }
            }
            if style != .plain { line += reset }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static func luma(_ pixel: [UInt8]) -> UInt8 {
        pixel.count == 1 ? pixel[0] : Bitmap.luma(pixel[0], pixel[1], pixel[2])
    }

    private static func rgb(_ pixel: [UInt8]) -> (UInt8, UInt8, UInt8) {
        pixel.count == 1 ? (pixel[0], pixel[0], pixel[0]) : (pixel[0], pixel[1], pixel[2])
    }

    /// The nearest entry of the xterm palette, by distance in RGB: the nearest
    /// colour of the 6x6x6 cube (16...231) or the nearest step of the gray
    /// ramp (232...255: 8, 18, ... 238), whichever is closer. The cube has only
    /// six grays, so a near-gray (a JPEG's slightly tinted white or shadow)
    /// taken from the cube alone turns navy, teal, pink or yellow.
    static func palette256(_ pixel: [UInt8]) -> Int {
        let (r, g, b) = (Int(rgb(pixel).0), Int(rgb(pixel).1), Int(rgb(pixel).2))
        func distance(_ x: Int, _ y: Int, _ z: Int) -> Int {
            (r - x) * (r - x) + (g - y) * (g - y) + (b - z) * (b - z)
        }
        let levels = [0, 95, 135, 175, 215, 255]
        func cubeIndex(_ value: Int) -> Int {
            levels.indices.min { abs(levels[$0] - value) < abs(levels[$1] - value) } ?? 0
        }
        let (cr, cg, cb) = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
        let cube = (index: 16 + 36 * cr + 6 * cg + cb, distance: distance(levels[cr], levels[cg], levels[cb]))
        let mean = (r + g + b) / 3
        let step = min(23, max(0, (mean - 8 + 5) / 10))
        let level = 8 + 10 * step
        let gray = (index: 232 + step, distance: distance(level, level, level))
        return gray.distance < cube.distance ? gray.index : cube.index
    }
}
