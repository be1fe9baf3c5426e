import Files
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where a command writes: results to stdout, diagnostics to stderr, colour
/// and live progress only when stderr is a terminal and `NO_COLOR` is unset.
public final class Console: Sendable {
    public let environment: [String: String]
    public let stdoutIsTerminal: Bool
    public let stderrIsTerminal: Bool
    public let usesColor: Bool
    /// Held while writing, so lines from worker threads never interleave. Holds
    /// the first failed write to stdout: a full disk, a closed pipe.
    private let writing = Mutex<OutputFailure?>(nil)

    public init(environment: [String: String]) {
        self.environment = environment
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        stderrIsTerminal = isatty(STDERR_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        usesColor = stderrIsTerminal && !noColor && environment["TERM"] != "dumb"
    }

    /// The terminal's width when stdout is one (`COLUMNS` first, as shells set
    /// it, else the terminal's own size); nil for a pipe or a file, whose
    /// lines are never cut.
    public var terminalColumns: Int? {
        guard stdoutIsTerminal else { return nil }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The width of the terminal stderr is on (`COLUMNS` first, as for `terminalColumns`), for
    /// the line redrawn there (progress); nil when stderr is no terminal or its width unknown.
    public var statusColumns: Int? {
        guard stderrIsTerminal else { return nil }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// One result line on stdout: every control character escaped, line breaks
    /// too, so a name from a file or a catalogue that holds one cannot split the
    /// line into two, the second passing for a line of its own.
    /// After a failed write nothing more is written; `CommandLineTool` reports it.
    public func output(_ line: String, terminator: String = "\n") {
        write(Format.escaped(line) + terminator, to: STDOUT_FILENO)
    }

    /// Several result lines the tool laid out itself (a `Format.table`, whose
    /// cells it escaped, or help): control characters other than line breaks
    /// escaped. Never for text that only interpolates names: that is `output`.
    public func outputLines(_ text: String, terminator: String = "\n") {
        write(Format.escaped(text, keepingNewlines: true) + terminator, to: STDOUT_FILENO)
    }

    /// A picture the tool drew itself (colour previews): its escape codes are written as they are.
    public func picture(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Machine-readable output (CSV, JSON) on stdout, exactly as given; throws
    /// when it cannot be written, so a long stream stops at the first failure.
    public func data(_ bytes: [UInt8]) throws(OutputFailure) {
        if let failure = write(bytes, to: STDOUT_FILENO) { throw failure }
    }

    /// The first write to stdout that failed, if one did.
    public var outputFailure: OutputFailure? { writing.withLock { $0 } }

    /// A progress or information line on stderr: one line, always (line breaks in
    /// `text` are escaped, as `output` escapes them).
    public func info(_ line: String) {
        write(Format.escaped(line) + "\n", to: StandardError.descriptor)
    }

    /// One line on stderr, always: line breaks in `text` are escaped too, and a very long
    /// line is shortened (`Format.bounded`).
    public func warning(_ text: String) {
        write(paint("warning:", "33") + " " + Format.bounded(Format.escaped(text)) + "\n", to: StandardError.descriptor)
    }

    /// One line on stderr, always: line breaks in `text` are escaped too, and a very long
    /// line is shortened (`Format.bounded`).
    public func error(_ text: String) {
        write(paint("error:", "31") + " " + Format.bounded(Format.escaped(text)) + "\n", to: StandardError.descriptor)
    }

    /// Rewrites the current stderr line (progress bars); only on a terminal. The line is cut a
    /// column short of the terminal's width: a longer one wrapped, and each redraw cleared only
    /// its last row, leaving the others behind (a progress line with a file name, `check`'s
    /// with the catalogue's path, training's epoch line on a narrow terminal).
    public func status(_ text: String) {
        guard stderrIsTerminal else { return }
        let line = Format.escaped(text)
        let shown = statusColumns.map { Format.prefix(line, columns: max(0, $0 - 1)) } ?? line
        write("\r\u{1B}[2K" + shown, to: StandardError.descriptor)
    }

    public func clearStatus() {
        guard stderrIsTerminal else { return }
        write("\r\u{1B}[2K", to: StandardError.descriptor)
    }

    /// Wraps text in an ANSI SGR code when colour is on.
    public func paint(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func write(_ text: String, to descriptor: Int32) {
        _ = write(Array(text.utf8), to: descriptor)
    }

    /// Unbuffered writes, one whole text at a time. A failure on stdout is kept
    /// (and returned); on stderr there is nowhere left to say it.
    @discardableResult
    private func write(_ text: [UInt8], to descriptor: Int32) -> OutputFailure? {
        writing.withLock { failed in
            if descriptor == STDOUT_FILENO, let failed { return failed }
            var bytes = text[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 {
                    guard descriptor == STDOUT_FILENO else { return nil }
                    failed = OutputFailure(code: written < 0 ? errno : EIO)
                    return failed
                }
                bytes = bytes.dropFirst(written)
            }
            return nil
        }
    }
}

/// Stdout could not take the output: a full disk, a device error, a reader gone.
public struct OutputFailure: Error, Sendable, CustomStringConvertible {
    /// The system's error number.
    public var code: Int32

    /// The reader went away (`| head`): the usual end of a pipeline, not an error to report.
    public var isClosedPipe: Bool { code == EPIPE }

    public var description: String { "cannot write the output: \(String(cString: strerror(code)))" }
}
