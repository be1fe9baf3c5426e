import Foundation

/// Shows how a long command is doing: a redrawn bar on a terminal, a plain
/// line every few seconds otherwise, nothing with --quiet or --json.
public final class ProgressReporter {
    private let console: Console
    private let enabled: Bool
    private var lastDraw: Date
    private let interval: TimeInterval

    public init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled
        interval = console.stderrIsTerminal ? 0.1 : 5
        // Plain lines start after the first interval, so short runs print none.
        lastDraw = console.stderrIsTerminal ? .distantPast : Date()
    }

    public func update(done: Int, total: Int, perSecond: Double, secondsLeft: Double?, current: String) {
        let finished = done == total && console.stderrIsTerminal
        guard enabled, finished || Date().timeIntervalSince(lastDraw) >= interval else { return }
        lastDraw = Date()
        let left = secondsLeft.map { "\(Format.duration($0)) left" } ?? ""
        if console.stderrIsTerminal {
            let width = 24
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            // The name as shown (escaped; a CJK name takes two a character) gets at most 40
            // columns of what the figures leave of the terminal's width, none when under 8, so
            // the figures stay whole (`status` cuts the line to the width). With 40 columns of
            // name always, the line took about 95, and on an 80-column terminal the cut took the
            // end of the name, or, before the cut, wrapped.
            let figures = "\(bar) \(done)/\(total)  \(Format.rate(perSecond))/s  \(left)"
            let room = console.statusColumns.map { max(0, $0 - 1) } ?? Int.max
            let nameRoom = min(40, room - Format.columns(figures) - 2)
            var line = figures
            if nameRoom >= 8 {
                line += "  " + Format.prefix(Format.escaped((current as NSString).lastPathComponent), columns: nameRoom)
            }
            console.status(line)
        } else {
            console.info("progress: \(done)/\(total) files, \(Format.rate(perSecond))/s, \(left)")
        }
    }

    public func finish() {
        if enabled { console.clearStatus() }
    }
}
