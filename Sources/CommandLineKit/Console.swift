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
    /// Held while writing, so lines from worker threads never interleave.
    private let writing = Mutex(())

    public init(environment: [String: String]) {
        self.environment = environment
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        stderrIsTerminal = isatty(STDERR_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        usesColor = stderrIsTerminal && !noColor && environment["TERM"] != "dumb"
    }

    /// A result line on stdout.
    public func output(_ text: String, terminator: String = "\n") {
        write(text + terminator, to: STDOUT_FILENO)
    }

    /// A progress or information line on stderr.
    public func info(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    public func warning(_ text: String) {
        write(paint("warning:", "33") + " " + text + "\n", to: STDERR_FILENO)
    }

    public func error(_ text: String) {
        write(paint("error:", "31") + " " + text + "\n", to: STDERR_FILENO)
    }

    /// Rewrites the current stderr line (progress bars); only on a terminal.
    public func status(_ text: String) {
        guard stderrIsTerminal else { return }
        write("\r\u{1B}[2K" + text, to: STDERR_FILENO)
    }

    public func clearStatus() {
        guard stderrIsTerminal else { return }
        write("\r\u{1B}[2K", to: STDERR_FILENO)
    }

    /// Wraps text in an ANSI SGR code when colour is on.
    public func paint(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Unbuffered writes, one whole text at a time.
    private func write(_ text: String, to descriptor: Int32) {
        writing.withLock { _ in
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }  // a closed pipe: nothing sensible left to do
                bytes = bytes.dropFirst(written)
            }
        }
    }
}
