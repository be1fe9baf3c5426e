import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard error, kept apart from what C libraries write there. The HEVC and
/// AV1 decoders under libheif (libde265, dav1d) print their own lines for damaged data
/// (`Error parsing OBU data`, `SPS error: ...`), which broke "every error is one line that
/// starts with `error:` and names the file", and with several workers were tied to no file;
/// libheif's own error, which the command reports with the file's name, says the same.
///
/// `descriptor` is a copy of file descriptor 2 made before anything is silenced, which
/// `Console` writes to; `silencingLibraries` points descriptor 2 at /dev/null while a library
/// call runs (counted, so calls on several threads overlap safely) and back after.
public enum StandardError {
    /// Where diagnostics go: standard error as the process was started with it.
    public static let descriptor: Int32 = {
        let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        return copy >= 0 ? copy : STDERR_FILENO
    }()

    private static let silenced = Mutex<(count: Int, saved: Int32)>((0, -1))

    /// Writes `line` (made visible as the command line's lines are, `VisibleText`) and a line
    /// break to `descriptor`, whole. A line that cannot be written (a full disk, a pipe whose
    /// reader has gone, a closed descriptor) is lost and nothing else happens: a server that
    /// logs a failure must go on serving. Foundation's `FileHandle.write` traps there, and a
    /// plain `write` to a pipe nobody reads ends the process with SIGPIPE, so SIGPIPE is held
    /// back on this thread while it writes, and one the write raised is taken, not delivered.
    public static func writeLine(_ line: String) {
        let bytes = Array((VisibleText.escaped(line) + "\n").utf8)
        var pipeSignal = sigset_t(), before = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &before)
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }
            done += written
        }
        sigpending(&pending)
        if !wasPending, sigismember(&pending, SIGPIPE) == 1 {
            var noWait = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &noWait)
        }
        pthread_sigmask(SIG_SETMASK, &before, nil)
    }

    /// Runs `body` with whatever C code writes to descriptor 2 thrown away.
    public static func silencingLibraries<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        _ = descriptor   // copied before descriptor 2 is ever redirected
        silenced.withLock { state in
            if state.count == 0 {
                let empty = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if empty >= 0 {
                    state.saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
                    dup2(empty, STDERR_FILENO)
                    close(empty)
                }
            }
            state.count += 1
        }
        defer {
            silenced.withLock { state in
                state.count -= 1
                if state.count == 0, state.saved >= 0 {
                    dup2(state.saved, STDERR_FILENO)
                    close(state.saved)
                    state.saved = -1
                }
            }
        }
        return try body()
    }
}
