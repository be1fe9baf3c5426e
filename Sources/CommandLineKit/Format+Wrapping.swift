extension Format {
    /// Help's prose filled to `width` terminal columns, as swift-argument-parser
    /// fills it: paragraphs are separated by blank lines, and the lines of a paragraph
    /// are one text, broken again between words (a word wider than the line stands
    /// alone). A line that starts with a space is an example, kept as written. Every
    /// line after the first starts with `indent` spaces; the first is left to the
    /// caller, which puts a name or a heading there (`firstLineUsed` columns of it).
    public static func filled(_ text: String, width: Int, indent: Int = 0, firstLineUsed: Int? = nil) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var used = firstLineUsed ?? indent
        var current = ""
        func endLine() {
            lines.append(current)
            current = ""
            used = indent
        }
        func add(_ word: Substring) {
            let wordColumns = columns(String(word))
            if !current.isEmpty, used + 1 + wordColumns > width {
                endLine()
            }
            if current.isEmpty {
                current = (lines.isEmpty ? "" : margin) + word
                used += wordColumns
            } else {
                current += " " + word
                used += 1 + wordColumns
            }
        }
        for (number, paragraph) in text.components(separatedBy: "\n\n").enumerated() {
            if number > 0 {
                if !current.isEmpty { endLine() }
                lines.append("")
            }
            for line in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.first == " " {
                    if !current.isEmpty { endLine() }
                    lines.append((lines.isEmpty ? "" : margin) + line)
                    continue
                }
                for word in line.split(separator: " ") { add(word) }
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines.map { $0.trimmingTrailingSpaces() }.joined(separator: "\n")
    }
}
