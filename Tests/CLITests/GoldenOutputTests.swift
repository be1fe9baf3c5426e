import Foundation
import Testing

/// Runs the fixed script in `Tests/Golden/commands.txt` through the built
/// binary and compares what it prints (stdout, stderr, exit status) with
/// `Tests/Golden/expected.txt`. Times, rates, durations and the temporary
/// folder are normalised; everything else must match to the character (a
/// number with a fraction to within 1e-4 of its size: see `sameLine`), so a
/// change of output is a visible diff in the same commit as its cause.
/// `WARDROBE_UPDATE_GOLDEN=1` rewrites the expected file instead.
@Suite struct GoldenOutputTests {
    static let golden = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Fixtures/samples")

    @Test func theToolSaysWhatItSaidBefore() throws {
        let script = try String(contentsOf: Self.golden.appendingPathComponent("commands.txt"), encoding: .utf8)
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(at: Self.fixtures, to: folder.root.appendingPathComponent("photos"))

        var transcript = ""
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
            let command = line.trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty, !command.hasPrefix("#") else { continue }
            let result = try WardrobeProcess.run(Self.words(command), currentDirectory: folder.root)
            transcript += "$ wardrobe \(command)\n[exit \(result.status)]\n"
            transcript += Self.section("stdout", result.stdout, root: folder.root)
            transcript += Self.section("stderr", result.stderr, root: folder.root)
            transcript += "\n"
        }

        let expectedURL = Self.golden.appendingPathComponent("expected.txt")
        if ProcessInfo.processInfo.environment["WARDROBE_UPDATE_GOLDEN"] == "1" {
            try transcript.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = transcript.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference = zip(expectedLines, actualLines).enumerated()
            .first { !Self.sameLine(String($0.element.0), String($0.element.1)) }
        #expect(firstDifference == nil && expectedLines.count == actualLines.count, """
            output differs from Tests/Golden/expected.txt\
            \(firstDifference.map { "; first at line \($0.offset + 1):\nexpected: \($0.element.0)\nactual:   \($0.element.1)" } ?? "")
            (rerun with WARDROBE_UPDATE_GOLDEN=1 if the change is intended, and review the diff)
            """)
    }

    /// Splits a script line into words; "double quotes" group words.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, started = false
        for character in line {
            if character == "\"" { quoted.toggle(); started = true }
            else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""; started = false
            } else { current.append(character); started = true }
        }
        if started { words.append(current) }
        return words
    }

    static func section(_ name: String, _ text: String, root: URL) -> String {
        guard !text.isEmpty else { return "" }
        let body = normalise(text, root: root)
        return "--- \(name)\n" + body + (body.hasSuffix("\n") ? "" : "\n[no newline at end]\n")
    }

    /// What may differ between two runs of the same script: where the
    /// temporary folder is, when things happened, and how fast they went.
    /// Long fractions are rounded to six significant digits, so the record
    /// holds what a person reads, not the last bits of a float.
    static func normalise(_ text: String, root: URL) -> String {
        var text = text
        // /tmp and /private/tmp (macOS) name the same folder. The checkout
        // (bundled model and sample) is wherever the clone happens to be.
        for prefix in [root.resolvingSymlinksInPath().path, root.path] {
            text = text.replacingOccurrences(of: prefix, with: "$DIR")
        }
        text = text.replacingOccurrences(of: repository.standardizedFileURL.path, with: "$REPO")
        let rules: [(String, String)] = [
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, "<time>"),
            (#"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?"#, "<time>"),
            (#"[\d,]+(\.\d+)? images/s"#, "<n> images/s"),
            (#"[\d,]+(\.\d+)? files/s"#, "<n> files/s"),
            (#"[\d,]+(\.\d+)? images per second"#, "<n> images per second"),
            (#"\b\d+(\.\d+)? ?(ms|µs|s)\b"#, "<duration>"),
            (#"\b\d+m\d+s\b"#, "<duration>"),
            (#"\"(seconds|images_per_second|elapsed_seconds|milliseconds)\"( ?): ?[0-9.e+-]+"#, "\"$1\"$2: <n>"),
        ]
        for (pattern, replacement) in rules {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return roundingLongFractions(text)
    }

    static let number = try! NSRegularExpression(pattern: #"-?\d+(\.\d+)?(e[+-]?\d+)?"#)

    /// The same text around the same numbers: integers (ids, counts, exit
    /// statuses) exactly, numbers with a fraction to within 1e-4 of their
    /// size. Logits and probabilities differ in their last float32 bits
    /// between CPUs, whose kernels sum in another order; a changed model or
    /// recipe moves them by far more.
    static func sameLine(_ expected: String, _ actual: String) -> Bool {
        if expected == actual { return true }
        func pieces(_ line: String) -> (text: [String], numbers: [String]) {
            let ns = line as NSString
            var text: [String] = [], numbers: [String] = [], at = 0
            for match in number.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                text.append(ns.substring(with: NSRange(location: at, length: match.range.location - at)))
                numbers.append(ns.substring(with: match.range))
                at = match.range.location + match.range.length
            }
            text.append(ns.substring(from: at))
            return (text, numbers)
        }
        let (e, a) = (pieces(expected), pieces(actual))
        guard e.text == a.text, e.numbers.count == a.numbers.count else { return false }
        return zip(e.numbers, a.numbers).allSatisfy { x, y in
            guard x != y else { return true }
            guard x.contains("."), y.contains("."), let u = Double(x), let v = Double(y) else { return false }
            return abs(u - v) <= 1e-4 * max(abs(u), abs(v))
        }
    }

    static func roundingLongFractions(_ text: String) -> String {
        let regex = try! NSRegularExpression(pattern: #"-?\d+\.\d{7,}(e[+-]?\d+)?"#)
        var result = text
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let range = Range(match.range, in: text)!
            guard let value = Double(text[range]) else { continue }
            result.replaceSubrange(Range(match.range, in: result)!, with: String(format: "%.6g", value))
        }
        return result
    }
}
